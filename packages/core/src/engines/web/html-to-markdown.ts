import type TurndownService from "turndown";

/** Elements whose content is never part of the page's text. */
const DROPPED_ELEMENTS = new Set([
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "TEMPLATE",
  "SVG",
  "IFRAME",
  "CANVAS",
  "LINK",
  "META",
  "BUTTON",
  "SELECT",
]);

/**
 * What these rules read of a node: domino's elements have it all. (The DOM's own types are not
 * in core's `lib`; turndown's typings name them, so its nodes are read through this.)
 */
interface ElementLike {
  nodeName: string;
  textContent: string | null;
  firstChild: { nodeName: string } | null;
  getAttribute(name: string): string | null;
}

const element = (node: unknown) => node as ElementLike;

let loaded: { Turndown: typeof TurndownService; gfm: TurndownService.Plugin } | undefined;

/**
 * turndown, the DOM parser it brings (domino) and the GitHub Markdown plugin, loaded on the first
 * HTML page: ~25 ms of module loading and ~700 KB of source that no other tool needs, so start-up
 * never pays for them.
 */
async function loadTurndown(): Promise<{ Turndown: typeof TurndownService; gfm: TurndownService.Plugin }> {
  if (!loaded) {
    const [turndown, plugin] = await Promise.all([import("turndown"), import("@joplin/turndown-plugin-gfm")]);
    loaded = { Turndown: turndown.default, gfm: plugin.gfm };
  }
  return loaded;
}

/**
 * An HTML page as Markdown, by turndown (what web-fetch tools commonly use) with GitHub's tables:
 * `#` headings, `-` lists, fenced code blocks (a `<pre>` too), `**bold**`, `| tables |`, links and
 * images with their URLs made absolute against `pageUrl`; scripts, styles, form controls and other
 * non-content elements dropped; entities decoded by a real HTML parser. The `<title>` is returned
 * apart, as plain text.
 */
export async function htmlToMarkdown(
  html: string,
  pageUrl?: URL,
): Promise<{ title: string | undefined; markdown: string }> {
  const { Turndown, gfm } = await loadTurndown();
  const service = new Turndown({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    hr: "---",
  });
  service.use(gfm);
  let title: string | undefined;
  service.remove((node) => DROPPED_ELEMENTS.has(element(node).nodeName.toUpperCase()));
  service.addRule("title", {
    filter: "title",
    replacement: (_content, node) => {
      title ??= collapseWhitespace(element(node).textContent ?? "") || undefined;
      return "";
    },
  });
  // turndown fences only `<pre><code>`; pages often put highlighted code straight in a `<pre>`.
  service.addRule("preformatted", {
    filter: (node) => element(node).nodeName === "PRE" && element(node).firstChild?.nodeName !== "CODE",
    replacement: (_content, node) => fenced(element(node).textContent ?? ""),
  });
  service.addRule("link", {
    filter: (node) => element(node).nodeName === "A" && element(node).getAttribute("href") !== null,
    replacement: (content, node) => {
      const href = absoluteUrl(element(node).getAttribute("href") ?? "", pageUrl);
      if (href === undefined || content.trim() === "") return content;
      return `[${content}](${escapeParentheses(href)})`;
    },
  });
  service.addRule("image", {
    filter: "img",
    replacement: (_content, node) => {
      const alt = collapseWhitespace(element(node).getAttribute("alt") ?? "");
      const src = absoluteUrl(element(node).getAttribute("src") ?? "", pageUrl);
      // An inline `data:` image would be kilobytes of base64 in the model's context.
      if (src === undefined || src.startsWith("data:")) return alt;
      return `![${alt}](${escapeParentheses(src)})`;
    },
  });
  const markdown = service
    .turndown(html)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title, markdown };
}

/** `href` resolved against the page; undefined for an empty one and for `javascript:` links. */
function absoluteUrl(href: string, pageUrl: URL | undefined): string | undefined {
  const trimmed = href.trim();
  if (trimmed === "" || /^javascript:/i.test(trimmed)) return undefined;
  if (pageUrl === undefined) return trimmed;
  try {
    return new URL(trimmed, pageUrl).href;
  } catch {
    return trimmed;
  }
}

/** A fenced block longer than any run of backticks in `code`. */
function fenced(code: string): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `\n\n${fence}\n${code.replace(/\n$/, "")}\n${fence}\n\n`;
}

function escapeParentheses(url: string): string {
  return url.replace(/[()]/g, (parenthesis) => `\\${parenthesis}`);
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
