import { isAbsolute } from "node:path";
import type { NyzhiConfig } from "@nyzhi/config";

/**
 * Files that hold credentials, never indexed whatever the ignore files say: an indexed file's
 * text is stored in the index, shown by search, and sent to a remote embedder. Bare names match
 * at any depth (the walker's `exclude` rules).
 */
export const SECRET_FILE_GLOBS: readonly string[] = [
  ".env",
  ".env.*",
  "*.pem",
  "*.key",
  "*.p12",
  "*.pfx",
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
  ".ssh",
  ".gnupg",
  ".aws",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
];

/**
 * nyzhi's own outputs (session exports, by the name `/export` and `nyz sessions export` give them):
 * indexed, a transcript would come back to the model as "codebase context" in the next prompt.
 */
export const NYZHI_OUTPUT_GLOBS: readonly string[] = ["nyzhi-export-*.md", "nyzhi-export-*.json"];

/**
 * What the walker leaves out besides the ignore files: the secret files above, nyzhi's own outputs, `index.exclude`,
 * and the relative `agent.trust.deny_paths` (a path the agent may not read is not indexed either;
 * absolute and `~` patterns name places outside any project).
 */
export function indexExclusions(config: NyzhiConfig): string[] {
  const denied = config.agent.trust.deny_paths.filter(
    (pattern) => !isAbsolute(pattern) && !pattern.startsWith("~"),
  );
  return [...SECRET_FILE_GLOBS, ...NYZHI_OUTPUT_GLOBS, ...config.index.exclude, ...denied];
}
