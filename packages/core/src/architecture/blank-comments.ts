/**
 * Replaces comments (and, for Python, triple-quoted strings) with spaces, keeping every newline,
 * so regular expressions over the result see only code and line numbers stay right. String
 * literals are kept: routes and import specifiers live in them.
 */
export function blankComments(text: string, language: "js" | "python"): string {
  const out: string[] = [];
  let index = 0;
  const blank = (from: number, to: number) => {
    for (let at = from; at < to; at++) out.push(text[at] === "\n" ? "\n" : " ");
  };
  while (index < text.length) {
    const char = text[index]!;
    const next = text[index + 1];
    if (language === "js" && char === "/" && next === "/") {
      const end = text.indexOf("\n", index);
      const stop = end < 0 ? text.length : end;
      blank(index, stop);
      index = stop;
    } else if (language === "js" && char === "/" && next === "*") {
      const end = text.indexOf("*/", index + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(index, stop);
      index = stop;
    } else if (language === "python" && char === "#") {
      const end = text.indexOf("\n", index);
      const stop = end < 0 ? text.length : end;
      blank(index, stop);
      index = stop;
    } else if (language === "python" && (text.startsWith('"""', index) || text.startsWith("'''", index))) {
      const quote = text.slice(index, index + 3);
      const end = text.indexOf(quote, index + 3);
      const stop = end < 0 ? text.length : end + 3;
      blank(index, stop);
      index = stop;
    } else if (char === '"' || char === "'" || char === "`") {
      const stop = stringEnd(text, index);
      out.push(text.slice(index, stop));
      index = stop;
    } else {
      out.push(char);
      index += 1;
    }
  }
  return out.join("");
}

/** Index just past the string literal opening at `start` (a template literal may span lines). */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === "\\") index += 2;
    else if (char === quote) return index + 1;
    else if (char === "\n" && quote !== "`") return index;
    else index += 1;
  }
  return text.length;
}

/** A function giving the 1-based line of a character offset in `text` (binary search over line starts). */
export function lineLocator(text: string): (offset: number) => number {
  const starts = [0];
  for (let index = 0; index < text.length; index++) if (text[index] === "\n") starts.push(index + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}

/** The text between the `{` at `open` and its matching `}` (exclusive); to the end when unbalanced. */
export function braceBody(text: string, open: number): string {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const char = text[index];
    if (char === "{") depth += 1;
    else if (char === "}") {
      depth -= 1;
      if (depth === 0) return text.slice(open + 1, index);
    }
  }
  return text.slice(open + 1);
}
