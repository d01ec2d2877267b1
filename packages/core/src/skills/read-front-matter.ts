import { type FrontMatterResult, parseFrontMatter } from "@nyzhi/config";

const BLOCK = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const SIMPLE_LINE = /^([A-Za-z][\w-]*):[ \t]*(.*)$/;

/**
 * Front matter as Claude Code reads it: YAML first, and when YAML rejects the block but every line
 * is a plain `key: value`, those values as raw strings. Claude Code's own examples are not valid
 * YAML (`argument-hint: [issue] [priority]`, `description: Use when: …`) yet work there, so they
 * must work here. Anything else YAML rejects stays an error.
 */
export async function readFrontMatter(text: string): Promise<FrontMatterResult> {
  const parsed = await parseFrontMatter(text);
  if (parsed.ok) return parsed;
  const block = BLOCK.exec(text.replace(/^\uFEFF/, ""));
  if (!block) return parsed;
  const data: Record<string, unknown> = {};
  for (const line of block[1]!.split(/\r?\n/)) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const match = SIMPLE_LINE.exec(line);
    if (!match) return parsed;
    data[match[1]!] = unquote(match[2]!.trim());
  }
  return { ok: true, data, body: text.replace(/^\uFEFF/, "").slice(block[0].length) };
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted ? quoted[2]! : value;
}
