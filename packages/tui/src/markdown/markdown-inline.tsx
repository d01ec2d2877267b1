import { Text } from "ink";
import type { Token } from "marked";
import type { ReactNode } from "react";
import type { Theme } from "../theme/theme.js";

const ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  "#39": "'",
  "#x27": "'",
  nbsp: "\u00a0",
};

/** Decodes the HTML entities markdown text may carry (`&amp;` → `&`). */
export function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_, name: string) => ENTITIES[name] ?? "");
}

function childTokens(token: Token): Token[] | undefined {
  return "tokens" in token && Array.isArray(token.tokens) ? (token.tokens as Token[]) : undefined;
}

/** The plain text of inline tokens (for measuring table cells). */
export function inlineText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      const children = childTokens(token);
      if (token.type === "br") return " ";
      if (token.type === "image") return `[image: ${token.text || token.href}]`;
      if (children) return inlineText(children);
      return decodeEntities("text" in token ? String(token.text) : token.raw);
    })
    .join("");
}

/** Renders inline markdown tokens (bold, italic, code, links, strikethrough) as nested ink text. */
export function renderInline(tokens: readonly Token[], theme: Theme, keyPrefix = "i"): ReactNode[] {
  return tokens.map((token, index) => {
    const key = `${keyPrefix}-${index}`;
    const children = childTokens(token);
    switch (token.type) {
      case "strong":
        return (
          <Text key={key} bold>
            {renderInline(children ?? [], theme, key)}
          </Text>
        );
      case "em":
        return (
          <Text key={key} italic>
            {renderInline(children ?? [], theme, key)}
          </Text>
        );
      case "del":
        return (
          <Text key={key} strikethrough>
            {renderInline(children ?? [], theme, key)}
          </Text>
        );
      case "codespan":
        return (
          <Text key={key} color={theme.accent}>
            {theme.color ? decodeEntities(token.text) : `\`${decodeEntities(token.text)}\``}
          </Text>
        );
      case "link": {
        const label = inlineText(children ?? []);
        return (
          <Text key={key}>
            <Text color={theme.info} underline={theme.color}>
              {label}
            </Text>
            {label === token.href || `mailto:${label}` === token.href ? "" : ` (${token.href})`}
          </Text>
        );
      }
      case "image":
        return (
          <Text key={key} color={theme.muted}>
            [image: {token.text || token.href}]
          </Text>
        );
      case "br":
        return <Text key={key}>{"\n"}</Text>;
      case "checkbox":
        return <Text key={key}>{token.checked ? "☑ " : "☐ "}</Text>;
      default:
        if (children) return <Text key={key}>{renderInline(children, theme, key)}</Text>;
        return <Text key={key}>{decodeEntities("text" in token ? String(token.text) : token.raw)}</Text>;
    }
  });
}
