import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ripgrepAvailable, searchWithRipgrep } from "./ripgrep-search.js";
import { rustRegexToJs, translateRustRegex } from "./rust-regex.js";

/** Lines where Rust's and JavaScript's regex dialects disagree unless translated. */
const LINES = [
  "plain ascii words here",
  "naïve café résumé",
  "digits 42 and arabic ٣٤ and devanagari ४२",
  "tab\there and no-break\u00a0space and ideographic\u3000space",
  "carriage\rreturn inside",
  "line\u2028separator inside",
  "bom\ufeffchar inside",
  "under_score and join\u200dcontrol",
  "élan starts with an accent",
  "KELVIN \u212a sign",
  "STRASSE and straße",
  "x.y and x+y and a{2} and (paren) and #hash and &amp; and ~tilde and -dash",
  "[bracket] and back\\slash",
  "emoji 😀 here",
  "",
  "aa",
];

const PATTERNS = [
  "\\w+é",
  "^\\w+$",
  "\\bé",
  "an\\b",
  "\\Bsum",
  "\\d\\d",
  "\\D+$",
  "[\\d]{2}",
  "no-break\\sspace",
  "ideographic\\sspace",
  "\\S+\\s\\S+\\s\\S+\\s\\S+\\s\\S+\\s\\S+",
  "carriage.return",
  "line.separator",
  "bom\\schar",
  "join\\wcontrol",
  "\\W\\W",
  "^[^a-z]+$",
  "x\\.y|x\\+y",
  "a\\{2\\}",
  "a{2}",
  "\\(paren\\)",
  "\\#hash",
  "\\&amp;",
  "\\~tilde",
  "\\-dash",
  "\\[bracket\\]",
  "back\\\\slash",
  "[\\[\\]]",
  "[a\\-z]ash",
  "\\x41",
  "\\x{1F600}",
  "😀|^aa$",
  "^$",
  "(?:ab|aa)",
  "kelvin",
  "[a-z]elvin",
  "straße",
  "e\\t|\\th",
];

const CASE_INSENSITIVE = ["kelvin", "[k]elvin", "STRASSE", "straße", "NAÏVE", "\\bÉLAN"];

describe("rustRegexToJs", () => {
  it("refuses what it cannot reproduce exactly", () => {
    for (const pattern of [
      "(?i)abc",
      "(?P<name>a)",
      "(?<name>a)",
      "a(?=b)",
      "\\p{Greek}",
      "\\pL",
      "[[:alpha:]]",
      "[a-z&&[^aeiou]]",
      "[a--b]",
      "[]a]",
      "\\A",
      "\\z",
      "\\<word",
      "a\\nb",
      "a\nb",
      "\\x0A",
      "\\1",
      "a]",
      "a}",
      "{",
      "a{ 2 }",
      "a{,2}",
      "[\\D]",
      "\\Qa.b\\E",
    ]) {
      expect({ pattern, regex: rustRegexToJs(pattern, false) }).toEqual({ pattern, regex: undefined });
    }
  });

  it("gives undefined for patterns JavaScript rejects as well", () => {
    expect(rustRegexToJs("(", false)).toBeUndefined();
    expect(rustRegexToJs("a**", false)).toBeUndefined();
    expect(rustRegexToJs("[\\d-z]", false)).toBeUndefined();
  });

  it("reports the choice points that decide how much backtracking a pattern can cost", () => {
    const shape = (pattern: string) => {
      const translated = translateRustRegex(pattern, false);
      return translated && { choices: translated.choicePoints, group: translated.repeatsGroup };
    };
    expect(shape("(a+)+b")).toEqual({ choices: 2, group: true });
    expect(shape("(?:ab){2,100}")).toEqual({ choices: 1, group: true });
    expect(shape("(ab)?c|(d)")).toEqual({ choices: 1, group: true });
    expect(shape("a.*=.*z")).toEqual({ choices: 2, group: false });
    expect(shape("x*?y+?")).toEqual({ choices: 2, group: false });
    expect(shape("a{1,10}b{3}c{2,}")).toEqual({ choices: 2, group: false });
    expect(shape("\\s{0,20}\\s{0,20}\\s{0,20}x")).toEqual({ choices: 3, group: false });
    expect(shape("a?a?a?aaa")).toEqual({ choices: 3, group: false });
    expect(shape("(?:a|b)c(?:d|e)f(?:g|h)")).toEqual({ choices: 3, group: false });
    // Top-level alternatives are costed one at a time.
    expect(shape("TODO|FIXME:?\\s*|XXX")).toEqual({ choices: 2, group: false });
    expect(shape("[*+?]\\*\\?")).toEqual({ choices: 0, group: false });
  });

  it("reads Rust's Unicode classes, not JavaScript's ASCII ones", () => {
    expect(rustRegexToJs("^\\w+$", false)!.test("naïve")).toBe(true);
    expect(rustRegexToJs("\\d", false)!.test("٣")).toBe(true);
    expect(rustRegexToJs("a\\sb", false)!.test("a\ufeffb")).toBe(false);
    expect(rustRegexToJs("a.b", false)!.test("a\rb")).toBe(true);
    expect(rustRegexToJs("\\bé", false)!.test("café")).toBe(false);
  });
});

const hasRipgrep = await ripgrepAvailable();

describe.skipIf(!hasRipgrep)("rustRegexToJs against ripgrep", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "nyzhi-rust-regex-"));
    await writeFile(join(folder, "lines.txt"), `${LINES.join("\n")}\n`);
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  async function ripgrepLines(pattern: string, caseInsensitive: boolean): Promise<number[]> {
    const result = await searchWithRipgrep({
      pattern,
      target: join(folder, "lines.txt"),
      targetIsFile: true,
      caseInsensitive,
      maxMatches: 1000,
    });
    return result.matches.map((match) => match.line);
  }

  function javascriptLines(pattern: string, caseInsensitive: boolean): number[] {
    const regex = rustRegexToJs(pattern, caseInsensitive);
    if (!regex) throw new Error(`not translated: ${pattern}`);
    return LINES.flatMap((line, index) => (regex.test(line) ? [index + 1] : []));
  }

  it("matches the same lines as ripgrep for every translated pattern", async () => {
    for (const pattern of PATTERNS) {
      const expected = await ripgrepLines(pattern, false);
      expect({ pattern, lines: javascriptLines(pattern, false) }).toEqual({ pattern, lines: expected });
    }
  });

  it("matches the same lines as ripgrep when ignoring case", async () => {
    for (const pattern of CASE_INSENSITIVE) {
      const expected = await ripgrepLines(pattern, true);
      expect({ pattern, lines: javascriptLines(pattern, true) }).toEqual({ pattern, lines: expected });
    }
  });
});
