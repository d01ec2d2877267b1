import { createRequire } from "node:module";
import { errorMessage, getLogger } from "@nyzhi/config";
import type { SyntaxScope } from "../theme/theme.js";

/** A run of code text with the syntax scope that colours it (undefined: plain). */
export interface CodeSpan {
  text: string;
  scope: SyntaxScope | undefined;
}

interface HighlightJs {
  getLanguage(name: string): unknown;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}

/** Code longer than this (characters) is shown plain: highlighting it would stall a frame. */
const MAX_HIGHLIGHT_LENGTH = 20_000;
/** Highlighted blocks kept, so a streaming block or a re-render does not highlight again. */
const CACHE_SIZE = 64;

let hljs: HighlightJs | undefined;
const cache = new Map<string, CodeSpan[][]>();

/**
 * Loads highlight.js (its common languages, ~40 ms) the first time a code fence is shown. The
 * literal `require` is for the app's bundle, which carries highlight.js and runs it only here.
 */
function loadHighlighter(): HighlightJs {
  if (!hljs) {
    hljs = (
      typeof require === "function"
        ? require("highlight.js/lib/common")
        : createRequire(import.meta.url)("highlight.js/lib/common")
    ) as HighlightJs;
  }
  return hljs;
}

const SCOPES: Readonly<Record<string, SyntaxScope>> = {
  keyword: "keyword",
  "selector-tag": "keyword",
  literal: "number",
  number: "number",
  string: "string",
  regexp: "string",
  addition: "string",
  comment: "comment",
  quote: "comment",
  doctag: "comment",
  title: "title",
  section: "title",
  name: "title",
  type: "type",
  built_in: "type",
  class: "type",
  meta: "meta",
  symbol: "meta",
  bullet: "meta",
  attr: "attr",
  attribute: "attr",
  property: "attr",
  variable: "attr",
  "template-variable": "attr",
  deletion: "attr",
  "selector-class": "attr",
  "selector-id": "attr",
};

const ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  "#x27": "'",
  "#39": "'",
};

function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name] ?? "");
}

function scopeOf(className: string): SyntaxScope | undefined {
  const first = className.split(" ")[0]?.replace(/^hljs-/, "") ?? "";
  return SCOPES[first];
}

/** Turns highlight.js's HTML (nested `<span class="hljs-…">`) into lines of coloured spans. */
function htmlToLines(html: string): CodeSpan[][] {
  const lines: CodeSpan[][] = [[]];
  const stack: (SyntaxScope | undefined)[] = [];
  for (const match of html.matchAll(/<span class="([^"]*)">|<\/span>|([^<]+)/g)) {
    if (match[1] !== undefined) {
      stack.push(scopeOf(match[1]) ?? stack.at(-1));
    } else if (match[2] !== undefined) {
      const scope = stack.at(-1);
      decode(match[2])
        .split("\n")
        .forEach((part, index) => {
          if (index > 0) lines.push([]);
          if (part !== "") lines.at(-1)!.push({ text: part, scope });
        });
    } else {
      stack.pop();
    }
  }
  return lines;
}

function plainLines(code: string): CodeSpan[][] {
  return code.split("\n").map((line) => (line === "" ? [] : [{ text: line, scope: undefined }]));
}

/**
 * Splits code into lines of spans coloured by syntax scope. Known languages (highlight.js's common
 * set and their aliases: ts, js, py, sh, json, rust, go …) are highlighted; others, and very long
 * code, come back plain. Results are cached.
 */
export function highlightCode(code: string, language: string | undefined): CodeSpan[][] {
  const lang = (language ?? "").trim().split(/\s/)[0]?.toLowerCase() ?? "";
  if (lang === "" || code.length > MAX_HIGHLIGHT_LENGTH) return plainLines(code);
  const key = `${lang}\u0000${code}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const highlighter = loadHighlighter();
  if (!highlighter.getLanguage(lang)) return plainLines(code);
  let lines: CodeSpan[][];
  try {
    lines = htmlToLines(highlighter.highlight(code, { language: lang, ignoreIllegals: true }).value);
  } catch (error) {
    getLogger().debug(
      { language: lang, error: errorMessage(error) },
      "highlighting failed; code shown plain",
    );
    lines = plainLines(code);
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, lines);
  return lines;
}
