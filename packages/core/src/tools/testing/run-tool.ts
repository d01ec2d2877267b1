import type { Tool } from "../seam/define-tool.js";
import type { ToolContext, ToolResult } from "../seam/tool-types.js";

/**
 * Parses raw arguments the way the registry does, then runs the tool: invalid arguments come back
 * as an error result, exactly what the model would see.
 */
export async function runTool(tool: Tool, rawInput: unknown, context: ToolContext): Promise<ToolResult> {
  const parsed = tool.parse(rawInput);
  if (!parsed.ok) return { output: parsed.error, isError: true };
  return tool.run(parsed.input, context);
}
