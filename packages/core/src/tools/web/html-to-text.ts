/**
 * HTML → readable plain text without a parser dependency: good enough for documentation pages and
 * articles, which is what an agent fetches. Drops scripts, styles and other non-content elements,
 * keeps headings (as `#` lines), list items (`- `), paragraphs and line breaks, `<pre>` blocks
 * verbatim, decodes entities and collapses whitespace.
 */
export function htmlToText(html: string): { title: string | undefined; text: string } {
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const title = titleMatch
    ? collapseInline(decodeEntities(stripTags(titleMatch[1] ?? ""))) || undefined
    : undefined;

  let body = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<![^>]*>|<\?[^>]*>/g, "")
    .replace(/<(script|style|noscript|template|svg|head|iframe|canvas)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<(script|style|link|meta)\b[^>]*>/gi, "");

  const preBlocks: string[] = [];
  body = body.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_, inner: string) => {
    preBlocks.push(decodeEntities(stripTags(inner.replace(/<br\s*\/?>/gi, "\n"))).replace(/^\n|\n$/g, ""));
    return `\n\u0000${preBlocks.length - 1}\u0000\n`;
  });

  body = body
    .replace(/<h([1-6])\b[^>]*>/gi, (_, level: string) => `\n\n${"#".repeat(Number(level))} `)
    .replace(/<\/h[1-6]\s*>/gi, "\n\n")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<hr\b[^>]*>/gi, "\n\n---\n\n")
    .replace(
      /<\/?(p|div|section|article|header|footer|nav|main|aside|blockquote|table|ul|ol|dl|form|figure)\b[^>]*>/gi,
      "\n\n",
    )
    .replace(/<\/?(tr|dt|dd|figcaption|caption)\b[^>]*>/gi, "\n")
    .replace(/<\/t[dh]\s*>/gi, "\t");

  const text = decodeEntities(stripTags(body))
    .split("\n")
    .map(collapseInline)
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
    .replace(/\u0000(\d+)\u0000/g, (_, index: string) => preBlocks[Number(index)] ?? "");
  return { title, text };
}

function stripTags(html: string): string {
  return html.replace(/<\/?[a-zA-Z][^>]*>/g, "");
}

function collapseInline(line: string): string {
  return line.replace(/[ \t\f\v\r\u00a0]+/g, " ").trim();
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  bull: "•",
  middot: "·",
  deg: "°",
  times: "×",
  divide: "÷",
  plusmn: "±",
  sect: "§",
  para: "¶",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  harr: "↔",
  rArr: "⇒",
  le: "≤",
  ge: "≥",
  ne: "≠",
  zwj: "\u200d",
  zwnj: "\u200c",
  shy: "",
  szlig: "ß",
  oslash: "ø",
  Oslash: "Ø",
  aelig: "æ",
  AElig: "Æ",
};

/** `&eacute;`, `&Uuml;`, `&ccedil;` …: a letter plus a combining mark, composed. */
const ACCENT_MARKS: Record<string, string> = {
  acute: "\u0301",
  grave: "\u0300",
  circ: "\u0302",
  uml: "\u0308",
  tilde: "\u0303",
  ring: "\u030a",
  cedil: "\u0327",
};

function accented(name: string): string | undefined {
  const match = /^([a-zA-Z])(acute|grave|circ|uml|tilde|ring|cedil)$/.exec(name);
  if (!match) return undefined;
  return `${match[1]}${ACCENT_MARKS[match[2]!]}`.normalize("NFC");
}

/** Decodes named (a common subset), decimal and hex character references; unknown ones stay as they are. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (entity, body: string) => {
    if (body.startsWith("#")) {
      const code =
        body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : entity;
    }
    return NAMED_ENTITIES[body] ?? accented(body) ?? NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}
