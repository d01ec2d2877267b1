import ignore, { type Ignore } from "ignore";

/**
 * `.gitignore`-style rules from several directories, applied the way git applies them: a path
 * is judged by the rules of each directory above it, from the root down, and a later (deeper)
 * match wins, so a nested file can re-include with `!` what the root excluded. Rules are matched
 * against the path relative to the directory that holds them.
 *
 * A file inside an excluded directory stays excluded whatever its own rules say (git's rule);
 * {@link isIgnoredWithAncestors} applies that for flat path lists.
 */
export class IgnoreStack {
  /** Rules by directory, relative to the root (`""` for the root itself). */
  private readonly rulesByDirectory = new Map<string, Ignore>();
  private readonly directoryVerdicts = new Map<string, boolean>();

  /** Adds rules (the text of an ignore file, or lines) that apply below `directory`. */
  add(directory: string, rules: string | readonly string[]): void {
    let rulesOfDirectory = this.rulesByDirectory.get(directory);
    if (!rulesOfDirectory) {
      rulesOfDirectory = ignore({ allowRelativePaths: true });
      this.rulesByDirectory.set(directory, rulesOfDirectory);
    }
    rulesOfDirectory.add(typeof rules === "string" ? rules : [...rules]);
    this.directoryVerdicts.clear();
  }

  /** Whether the path itself matches (its parent directories are not checked). */
  isIgnored(path: string, options: { directory: boolean }): boolean {
    let ignored = false;
    let slash = -1;
    do {
      const directory = slash < 0 ? "" : path.slice(0, slash);
      const rules = this.rulesByDirectory.get(directory);
      if (rules) {
        const relative = slash < 0 ? path : path.slice(slash + 1);
        const verdict = rules.test(options.directory ? `${relative}/` : relative);
        if (verdict.ignored) ignored = true;
        else if (verdict.unignored) ignored = false;
      }
      slash = path.indexOf("/", slash + 1);
    } while (slash >= 0);
    return ignored;
  }

  /** Whether the file or any directory above it is ignored (verdicts on directories are cached). */
  isIgnoredWithAncestors(path: string): boolean {
    for (let slash = path.indexOf("/"); slash >= 0; slash = path.indexOf("/", slash + 1)) {
      const directory = path.slice(0, slash);
      let verdict = this.directoryVerdicts.get(directory);
      if (verdict === undefined) {
        verdict = this.isIgnored(directory, { directory: true });
        this.directoryVerdicts.set(directory, verdict);
      }
      if (verdict) return true;
    }
    return this.isIgnored(path, { directory: false });
  }
}
