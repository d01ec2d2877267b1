import { homedir } from "node:os";
import type { PathUse } from "../seam/tool-types.js";

/** Commands whose operands they (may) write. */
const WRITING_COMMANDS = new Set([
  "rm",
  "rmdir",
  "mv",
  "cp",
  "touch",
  "mkdir",
  "tee",
  "ln",
  "chmod",
  "chown",
  "truncate",
  "install",
  "shred",
  "unlink",
]);

const OPERATORS = new Set(["|", "||", "&", "&&", ";", "(", ")", "\n"]);

/**
 * A best-effort list of the paths a shell command names: operands of each simple command and
 * redirection targets. Writes are redirection targets (`>`, `>>`, `2>`) and operands of common
 * writing commands (rm, mv, cp, touch, …); everything else counts as a read.
 *
 * `~` (unquoted, at the start of a word) and `$HOME`/`${HOME}` (outside single quotes) are expanded
 * to `options.home` (default the home directory), as the shell would.
 *
 * Used for deny rules (`cat .env` is refused when `.env` is denied) and, when bubblewrap is not
 * available, as the path check of last resort. It cannot see through other variables, globs,
 * command substitution, `eval` or programs that open files themselves; bubblewrap is the real
 * boundary.
 */
export function extractCommandPaths(command: string, options: { home?: string } = {}): PathUse[] {
  const uses: PathUse[] = [];
  const seen = new Set<string>();
  const add = (path: string, access: PathUse["access"]) => {
    if (!looksLikePath(path)) return;
    const key = `${access}:${path}`;
    if (seen.has(key)) return;
    seen.add(key);
    uses.push({ path, access });
  };
  let words: string[] = [];
  const flush = () => {
    const assignmentsEnd = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
    const [program, ...operands] = assignmentsEnd === -1 ? [] : words.slice(assignmentsEnd);
    const access =
      program !== undefined && WRITING_COMMANDS.has(program.split("/").pop() ?? "") ? "write" : "read";
    for (const operand of operands) {
      if (operand.startsWith("-")) {
        const equals = operand.indexOf("=");
        if (equals !== -1) add(operand.slice(equals + 1), "read");
        continue;
      }
      add(operand, access);
    }
    words = [];
  };
  const tokens = tokenize(command, options.home ?? homedir());
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.operator && OPERATORS.has(token.text)) {
      flush();
      continue;
    }
    if (token.operator) {
      const target = tokens[index + 1];
      if (target && !target.operator) {
        // `<<EOF` and `<<<word` take a delimiter or a string, not a file.
        if (!token.text.startsWith("<<")) add(target.text, token.text.includes(">") ? "write" : "read");
        index++;
      }
      continue;
    }
    words.push(token.text);
  }
  flush();
  return uses;
}

function looksLikePath(word: string): boolean {
  if (word === "" || /[$`*?[\]{}]/.test(word)) return false;
  if (word.startsWith("/dev/") || word.startsWith("/proc/self/")) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) return false;
  return true;
}

interface Token {
  text: string;
  operator: boolean;
}

/** `$HOME` or `${HOME}` at `index`: its length, else 0. */
function homeVariableAt(text: string, index: number): number {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  if (text.startsWith("${HOME}", index)) return 7;
  if (text.startsWith("$HOME", index) && !/[A-Za-z0-9_]/.test(text[index + 5] ?? "")) return 5;
  return 0;
}

function expandHomeVariables(text: string, home: string): string {
  return text.replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, () => home);
}

/**
 * Splits on whitespace and shell operators, honouring single/double quotes and backslashes, and
 * expands `~` and `$HOME` where the shell would.
 */
function tokenize(command: string, home: string): Token[] {
  const tokens: Token[] = [];
  let current = "";
  let inWord = false;
  const push = () => {
    if (inWord) tokens.push({ text: current, operator: false });
    current = "";
    inWord = false;
  };
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    if (char === "'" || char === '"') {
      const close = command.indexOf(char, index + 1);
      const end = close === -1 ? command.length : close;
      const quoted = command.slice(index + 1, end);
      current += char === '"' ? expandHomeVariables(quoted, home) : quoted;
      inWord = true;
      index = end;
    } else if (char === "~" && !inWord && /^(?:[/\s;|&()<>]|$)/.test(command.slice(index + 1, index + 2))) {
      current += home;
      inWord = true;
    } else if (char === "$" && homeVariableAt(command, index) > 0) {
      current += home;
      inWord = true;
      index += homeVariableAt(command, index) - 1;
    } else if (char === "\\" && index + 1 < command.length) {
      current += command[++index];
      inWord = true;
    } else if (
      char === "\n" ||
      char === ";" ||
      char === "|" ||
      char === "&" ||
      char === "(" ||
      char === ")"
    ) {
      push();
      const pair = command[index + 1] === char && (char === "|" || char === "&") ? char + char : char;
      if (char === "&" && command[index + 1] === ">") {
        tokens.push({ text: "&>", operator: true });
        index++;
        continue;
      }
      tokens.push({ text: pair, operator: true });
      index += pair.length - 1;
    } else if (char === ">" || char === "<") {
      const descriptor = /^\d+$/.test(current) ? current : "";
      if (descriptor) {
        current = "";
        inWord = false;
      } else push();
      let operator = char;
      while (command[index + 1] === ">" || command[index + 1] === "<" || command[index + 1] === "&") {
        operator += command[++index];
      }
      const duplicated = /^[-\d]+/.exec(command.slice(index + 1));
      if (operator.endsWith("&") && duplicated) {
        index += duplicated[0].length; // `2>&1`, `>&-`: a descriptor, not a file.
        continue;
      }
      tokens.push({ text: operator.replace(/&$/, ""), operator: true });
    } else if (/\s/.test(char)) {
      push();
    } else {
      current += char;
      inWord = true;
    }
  }
  push();
  return tokens;
}
