import { dirname, join } from "node:path";
import { compareText, errorMessage, getLogger, writeFileAtomic } from "@nyzhi/config";
import { ensureContextIgnored } from "../compaction/context-dirs.js";
import type { Tool } from "../tools/seam/define-tool.js";

/** Where the index of deferred MCP tools is written, relative to the project root. */
export const MCP_INDEX_PATH = join(".nyzhi", "context", "tools", "mcp-index.md");

/** The index text: `# MCP Tool Index` and one `` - `name`  description `` line per tool, sorted. */
export function renderMcpIndex(tools: readonly Pick<Tool, "name" | "description">[]): string {
  const lines = [...tools]
    .sort((left, right) => compareText(left.name, right.name))
    .map((tool) => `- \`${tool.name}\`  ${tool.description.split("\n", 1)[0] ?? ""}`.trimEnd());
  return `# MCP Tool Index\n\n${lines.join("\n")}\n`;
}

/**
 * Writes the index of deferred MCP tools to `<root>/.nyzhi/context/tools/mcp-index.md`, so the
 * model (and the user) can read the whole list; `tool_search` finds them too. Failures are logged.
 */
export async function writeMcpIndex(
  root: string,
  tools: readonly Pick<Tool, "name" | "description">[],
): Promise<void> {
  try {
    await ensureContextIgnored(dirname(join(root, MCP_INDEX_PATH)));
    await writeFileAtomic(join(root, MCP_INDEX_PATH), renderMcpIndex(tools));
  } catch (error) {
    getLogger().warn({ root, error: errorMessage(error) }, "could not write the MCP tool index");
  }
}
