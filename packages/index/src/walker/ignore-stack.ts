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
  /** Rules by directory, relative to the root (`""` for the root itself), compiled on first use. */
  private readonly rulesByDirectory = new Map<string, { text: string; matcher: Ignore | undefined }>();
  /** The directories with rules, parents first (a deeper rule wins, so it is applied later). */
  private ruleDirectories: string[] | undefined;
  private readonly directoryVerdicts = new Map<string, boolean>();

  /** Adds rules (the text of an ignore file, or lines) that apply below `directory`. */
  add(directory: string, rules: string | readonly string[]): void {
    const text = typeof rules === "string" ? rules : rules.join("\n");
    const previous = this.rulesByDirectory.get(directory);
    this.rulesByDirectory.set(directory, {
      text: previous ? `${previous.text}\n${text}` : text,
      matcher: undefined,
    });
    this.ruleDirectories = undefined;
    this.directoryVerdicts.clear();
  }

  private matcherOf(directory: string): Ignore | undefined {
    const entry = this.rulesByDirectory.get(directory);
    if (!entry) return undefined;
    entry.matcher ??= compiledRules(entry.text);
    return entry.matcher;
  }

  /** Whether the path itself matches (its parent directories are not checked). */
  isIgnored(path: string, options: { directory: boolean }): boolean {
    let ignored = false;
    const judge = (directory: string, relative: string): void => {
      const verdict = this.matcherOf(directory)?.test(options.directory ? `${relative}/` : relative);
      if (verdict?.ignored) ignored = true;
      else if (verdict?.unignored) ignored = false;
    };
    if (this.rulesByDirectory.size <= FEW_RULE_DIRECTORIES) {
      // Few folders have rules (usual inside git, which applies .gitignore itself): try those.
      this.ruleDirectories ??= [...this.rulesByDirectory.keys()].sort(
        (left, right) => depth(left) - depth(right) || (left < right ? -1 : 1),
      );
      for (const directory of this.ruleDirectories) {
        if (directory === "") judge("", path);
        else if (path.startsWith(directory) && path.charCodeAt(directory.length) === SLASH)
          judge(directory, path.slice(directory.length + 1));
      }
      return ignored;
    }
    let slash = -1;
    do {
      const directory = slash < 0 ? "" : path.slice(0, slash);
      if (this.rulesByDirectory.has(directory)) judge(directory, slash < 0 ? path : path.slice(slash + 1));
      slash = path.indexOf("/", slash + 1);
    } while (slash >= 0);
    return ignored;
  }

  /** Whether the file or any directory above it is ignored (verdicts on directories are cached). */
  isIgnoredWithAncestors(path: string): boolean {
    const slash = path.lastIndexOf("/");
    return (
      (slash > 0 && this.isDirectoryOut(path.slice(0, slash))) || this.isIgnored(path, { directory: false })
    );
  }

  /** Whether the directory or one above it is ignored, remembered per directory. */
  private isDirectoryOut(directory: string): boolean {
    let verdict = this.directoryVerdicts.get(directory);
    if (verdict === undefined) {
      const slash = directory.lastIndexOf("/");
      verdict =
        (slash > 0 && this.isDirectoryOut(directory.slice(0, slash))) ||
        this.isIgnored(directory, { directory: true });
      this.directoryVerdicts.set(directory, verdict);
    }
    return verdict;
  }
}

/** Up to this many folders with rules, each path is tried against each of them. */
const FEW_RULE_DIRECTORIES = 8;
const SLASH = 47;

function depth(directory: string): number {
  if (directory === "") return 0;
  let slashes = 1;
  for (let at = directory.indexOf("/"); at >= 0; at = directory.indexOf("/", at + 1)) slashes++;
  return slashes;
}

/** Compiled rule sets kept between walks, by their text (a re-index walks the same rules again). */
const compiledCache = new Map<string, { matcher: Ignore; uses: number }>();
/** Rule sets kept; the least recently used goes first. */
const MAX_COMPILED_RULE_SETS = 256;
/**
 * Walks served by one compiled set before it is compiled afresh: its cache of verdicts only grows
 * (paths that left the project stay in it), so this bounds it to the paths of a few dozen walks.
 */
const MAX_USES_PER_RULE_SET = 50;

/**
 * The `ignore` matcher of a rule text, compiled once and shared by every walk that reads the same
 * text. The matcher caches each path's verdict, so walking an unchanged project again costs one
 * lookup per path instead of running every rule's expression.
 */
function compiledRules(text: string): Ignore {
  let entry = compiledCache.get(text);
  if (entry && entry.uses < MAX_USES_PER_RULE_SET) {
    compiledCache.delete(text);
    entry.uses++;
  } else {
    compiledCache.delete(text);
    entry = { matcher: ignore({ allowRelativePaths: true }).add(text), uses: 1 };
    if (compiledCache.size >= MAX_COMPILED_RULE_SETS) {
      const oldest = compiledCache.keys().next().value;
      if (oldest !== undefined) compiledCache.delete(oldest);
    }
  }
  compiledCache.set(text, entry);
  return entry.matcher;
}
