import { isAbsolute, relative, sep } from "node:path";
import picomatch from "picomatch";
import { type ConditionalRule, loadModularRules } from "./load-rules.js";

export interface MatchedRules {
  /** Conditional rules whose `paths:` globs match at least one of the files, in filename order. */
  rules: ConditionalRule[];
  /** Their bodies joined by a blank line; undefined when none match. */
  text: string | undefined;
  warnings: string[];
}

function toRootRelative(root: string, filePath: string): string {
  const relativePath = isAbsolute(filePath) ? relative(root, filePath) : filePath;
  return relativePath.split(sep).join("/").replace(/^\.\//, "");
}

/**
 * The conditional rules (`.nyzhi/rules/*.md` with front matter `paths:`) that apply to
 * `filePaths` (absolute, or relative to `root`). Globs are picomatch globs relative to the root
 * (`src/api/**\/*.ts`); dotfiles match too.
 */
export async function loadConditionalRules(
  root: string,
  filePaths: readonly string[],
): Promise<MatchedRules> {
  const { conditional, warnings } = await loadModularRules(root);
  const files = filePaths.map((filePath) => toRootRelative(root, filePath));
  const rules = conditional.filter((rule) => {
    const matches = picomatch(rule.globs, { dot: true });
    return files.some((file) => matches(file));
  });
  return {
    rules,
    text: rules.length > 0 ? rules.map((rule) => rule.content).join("\n\n") : undefined,
    warnings,
  };
}
