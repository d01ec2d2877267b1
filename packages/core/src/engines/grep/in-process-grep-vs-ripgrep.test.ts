import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GrepSearchOptions } from "./grep-search-types.js";
import { IN_PROCESS_LIMITS, searchInProcess } from "./in-process-grep.js";
import { ripgrepAvailable, searchWithRipgrep } from "./ripgrep-search.js";

/**
 * The differential test of in-process grep: every pattern, each way of case, searched in-process
 * and by the real ripgrep over the same folder. The in-process search may hand a pattern to
 * ripgrep (it gives undefined); when it answers, its answer must be ripgrep's, line for line.
 */
const FILES: Record<string, string> = {
  "ascii.txt": [
    "foo",
    "foobar and barfoo",
    "the foo_bar variable, the foo-bar flag",
    "FOO in capitals, Foo in title case",
    "colour and color",
    "tab\tseparated\tvalues",
    "price: $42.50 (about 40)",
    "   ",
    "",
    "a.c abc a-c",
    "x = y + z; // comment",
    "end with spaces   ",
    "TODO: fix this FIXME later",
    "[brackets] {braces} (parens) <angles>",
    "back\\slash and 'quotes' and \"double\"",
  ].join("\n"),
  "unicode.txt": [
    "café au lait, naïve résumé",
    "cafe\u0301 decomposed",
    "straße and STRASSE and ẞ capital",
    "日本語のテキスト and 漢字",
    "emoji 😀 and thumbs 👍🏽 and flag 🇯🇵",
    "😀",
    "Ελληνικά and русский текст",
    "KELVIN \u212a sign and long \u017f s",
    "İstanbul and ıi dotless",
    "digits ٣٤ and ４２ fullwidth",
    "no\u00a0break and ideographic\u3000space",
    "zero\u200bwidth joiner\u200dhere",
    "ǅ titlecase digraph",
    "éclair starts with é",
  ].join("\n"),
  "crlf.txt": "foo\r\nbar baz\r\n\r\nlast foo\r\n",
  "no-final-newline.txt": "first\nfoo at the end",
  "nested/deeper/code.ts": [
    "export function fooBar(): number {",
    "  return 42; // foo",
    "}",
    "const café = 'é';",
  ].join("\n"),
  "long/line.txt": `${"word ".repeat(90)}foo ${"é".repeat(30)}\n${"x".repeat(450)}\n`,
  "binary.bin": "foo\u0000bar\n",
  ".hidden/secret.txt": "foo hidden\n",
  "ignored/skip.txt": "foo ignored\n",
  ".gitignore": "ignored/\n",
};

const PATTERNS = [
  "foo",
  "\\bfoo\\b",
  "\\bfoo",
  "foo\\b",
  "\\Bfoo",
  "(?i)foo",
  "(?i)straße",
  "[a-z]+_[a-z]+",
  "[A-Z]{3,}",
  "\\d+",
  "\\d{2,}",
  "[0-9]+",
  "\\w+é",
  "^\\w+$",
  "\\W\\W",
  "\\s+$",
  "^\\s*$",
  "^$",
  "^.{5}$",
  "[^a-z ]",
  "[[:alpha:]]+",
  "\\p{Greek}+",
  "é",
  "caf[eé]",
  "straße",
  "STRASSE",
  "ß",
  "日本",
  "[日本語]+",
  "😀",
  "^.$",
  "👍",
  "a.c",
  "foo|bar",
  "(foo|bar)baz",
  "colou?r",
  "\\x41|\\x{e9}",
  "\\t",
  "[\\t ]+values",
  "\\$\\d+\\.\\d\\d",
  "\\(parens\\)",
  "\\bé",
  "é\\b",
  "k",
  "ı|İ",
  "ǆ",
  "o$",
  "\\r$",
  "foo\\r",
  "TODO|FIXME",
  "x{450}",
  "fooBar\\(\\)",
  "[\\w-]+bar",
  "[^\\s]+é",
  "\\S+\\s\\S+",
  ".{2}$",
  "x*",
  "(?:ab|a)c",
  "[a-zA-Z]+ sign",
  "[à-ÿ]+",
  "ẞ",
  "^\\W+$",
  "\\x{1F1EF}",
  "\\u00e9",
  "(a)\\1",
];

const hasRipgrep = await ripgrepAvailable();

describe.skipIf(!hasRipgrep)("in-process grep against ripgrep", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-grep-differential-")));
    for (const [path, content] of Object.entries(FILES)) {
      await mkdir(join(folder, path, ".."), { recursive: true });
      await writeFile(join(folder, path), content);
    }
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it.each([false, true])(
    "gives ripgrep's matches or hands the pattern over (ignoring case: %s)",
    async (caseInsensitive) => {
      const differences: unknown[] = [];
      let answered = 0;
      for (const pattern of PATTERNS) {
        const options: GrepSearchOptions = {
          pattern,
          target: folder,
          targetIsFile: false,
          caseInsensitive,
          maxMatches: 1000,
        };
        // The limits that decide speed are lifted: this compares meaning, also on the long lines.
        const inProcess = searchInProcess(options, {
          ...IN_PROCESS_LIMITS,
          maxLineChars: 10_000,
          maxMatchMs: 60_000,
        });
        if (inProcess === undefined) continue;
        answered += 1;
        const ripgrep = await searchWithRipgrep(options).catch((error: Error) => error.message);
        if (JSON.stringify(inProcess) !== JSON.stringify(ripgrep))
          differences.push({ pattern, inProcess, ripgrep });
      }
      expect(differences).toEqual([]);
      console.log(
        `${caseInsensitive ? "ignoring case" : "case-sensitive"}: ${answered} of ${PATTERNS.length} searched in-process`,
      );
      // Most patterns users type are searched in-process; the test compares something.
      expect(answered).toBeGreaterThanOrEqual(PATTERNS.length * 0.7);
    },
  );
});
