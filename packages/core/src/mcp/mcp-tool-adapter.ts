import { createHash } from "node:crypto";
import { errorMessage } from "@nyzhi/config";
import { DEFAULT_MAX_OUTPUT_CHARS, type Tool } from "../tools/seam/define-tool.js";
import type { ToolKind, ToolResult } from "../tools/seam/tool-types.js";
import { truncateText } from "../tools/seam/truncate-text.js";
import { type McpCallResult, mapMcpResult } from "./map-mcp-result.js";
import type { McpToolInfo } from "./mcp-connection.js";

/** Model-facing tool names allow letters, digits, `_` and `-`, at most 64 of them (Anthropic, OpenAI). */
const MAX_TOOL_NAME = 64;

/**
 * `mcp__<server>__<tool>`, with characters providers reject replaced by `_`. A name over 64
 * characters keeps its first 55 and ends in `_` plus 8 hex digits of a hash of the whole name, so
 * two long tool names that share a beginning stay apart (cutting alone made them collide).
 */
export function mcpToolName(server: string, tool: string): string {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, "_");
  const name = `mcp__${clean(server)}__${clean(tool)}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
}

/** Calls a tool on a server; the manager implements it against the live connection. */
export type McpToolCaller = (
  server: string,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<McpCallResult>;

export interface McpToolAdapterOptions {
  server: string;
  /** `network` for HTTP servers, `execute` for local processes: either way permissions ask unless trusted. */
  kind: Extract<ToolKind, "network" | "execute">;
  info: McpToolInfo;
  call: McpToolCaller;
}

/**
 * An MCP tool as a registry `Tool`. The schema is the server's JSON schema, offered unchanged; the
 * arguments are checked minimally against it (an object, required keys present, primitive types
 * right) and the server validates the rest. It mutates unless the server marks it `readOnlyHint`.
 * Images in the result go to `metadata.images` (and are named in the text).
 */
export function mcpTool(options: McpToolAdapterOptions): Tool {
  const { server, info, call } = options;
  const name = mcpToolName(server, info.name);
  const schema = normalizeSchema(info.inputSchema);
  const title = info.annotations?.title;
  const description = info.description?.trim() || title || "MCP tool";
  return {
    name,
    description: `${description}\n\n(MCP server "${server}", tool "${info.name}")`,
    kind: options.kind,
    mutates: info.annotations?.readOnlyHint !== true,
    inputJsonSchema: schema,
    parse(rawInput) {
      const problems = checkArguments(rawInput ?? {}, schema);
      if (problems.length === 0) return { ok: true, input: rawInput ?? {} };
      return {
        ok: false,
        error: `Invalid arguments for ${name}:\n${problems.map((line) => `- ${line}`).join("\n")}`,
      };
    },
    pathsOf: () => [],
    previewOf(input) {
      return `${server} › ${info.name} ${truncateText(JSON.stringify(input), 500)}`;
    },
    async run(input, context): Promise<ToolResult> {
      try {
        const mapped = mapMcpResult(
          await call(server, info.name, input as Record<string, unknown>, context.signal),
        );
        const result: ToolResult = { output: truncateText(mapped.output, DEFAULT_MAX_OUTPUT_CHARS) };
        if (mapped.isError) result.isError = true;
        if (mapped.images.length > 0) result.metadata = { images: mapped.images };
        return result;
      } catch (error) {
        if (context.signal.aborted) return { output: `${name} was cancelled.`, isError: true };
        return {
          output: `MCP server "${server}" failed to run ${info.name}: ${errorMessage(error)}`,
          isError: true,
        };
      }
    },
  };
}

function normalizeSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...(schema ?? {}) };
  delete copy.$schema;
  if (copy.type === undefined) copy.type = "object";
  if (copy.type === "object" && copy.properties === undefined) copy.properties = {};
  return copy;
}

const TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === "string",
  number: (value) => typeof value === "number",
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === "boolean",
  array: (value) => Array.isArray(value),
  object: (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  null: (value) => value === null,
};

/** Top-level checks only: the server is the real validator. Returns one line per problem. */
export function checkArguments(input: unknown, schema: Record<string, unknown>): string[] {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return ["(arguments): expected an object"];
  }
  const values = input as Record<string, unknown>;
  const problems: string[] = [];
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  for (const key of required) {
    if (values[key] === undefined) problems.push(`${key}: required`);
  }
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  for (const [key, value] of Object.entries(values)) {
    const declared = properties[key]?.type;
    if (value === undefined || declared === undefined) continue;
    const types = (Array.isArray(declared) ? declared : [declared]).filter(
      (type): type is string => typeof type === "string" && type in TYPE_CHECKS,
    );
    if (types.length > 0 && !types.some((type) => TYPE_CHECKS[type]!(value))) {
      problems.push(`${key}: expected ${types.join(" or ")}`);
    }
  }
  return problems;
}
