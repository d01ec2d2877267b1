import { isAbsolute, relative, sep } from "node:path";
import { type Environment, type NyzhiConfig, resolveDirs } from "@nyzhi/config";

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
 * What the walker leaves out besides the ignore files: the secret files above, `index.exclude`,
 * and the relative `agent.trust.deny_paths` (a path the agent may not read is not indexed either;
 * absolute and `~` patterns name places outside any project).
 */
export function indexExclusions(config: NyzhiConfig): string[] {
  const denied = config.agent.trust.deny_paths.filter(
    (pattern) => !isAbsolute(pattern) && !pattern.startsWith("~"),
  );
  return [...SECRET_FILE_GLOBS, ...config.index.exclude, ...denied];
}

/**
 * What nyzhi itself writes inside a project, never indexed whatever the ignore files say: its
 * working files under `.nyzhi/` (offloaded tool output and saved histories in `context/`, notes in
 * `notepads/`), session exports (`nyzhi-export-<time>.md`, `nyz sessions export` also `.json`) and its log. Their text
 * is the agent's own output; indexed, it would come back to the model as if it were the project's code.
 */
export const NYZHI_OUTPUT_GLOBS: readonly string[] = [
  ".nyzhi/context",
  ".nyzhi/notepads",
  "nyzhi-export-*.md",
  "nyzhi-export-*.json",
  "nyzhi.log",
  "nyzhi.log.*",
];

/**
 * `NYZHI_OUTPUT_GLOBS`, plus nyzhi's config, data and cache folders when they lie inside the
 * project (`NYZHI_HOME` set to a folder of it): they hold sessions, logs and the index itself.
 */
export function nyzhiOutputExclusions(root: string, env: Environment): string[] {
  const dirs = resolveDirs(env);
  const inside = [dirs.config, dirs.data, dirs.cache]
    .map((dir) => relative(root, dir))
    .filter((path) => path !== "" && !path.startsWith("..") && !isAbsolute(path))
    .map((path) => `/${path.split(sep).join("/")}`);
  return [...NYZHI_OUTPUT_GLOBS, ...inside];
}
