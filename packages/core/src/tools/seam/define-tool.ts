import { errorMessage, NyzhiError, WITHOUT_ZOD_JIT } from "@nyzhi/config";
import type { z } from "zod";
import { toolJsonSchema } from "./precomputed-schemas.js";
import type { PathUse, ToolContext, ToolKind, ToolResult } from "./tool-types.js";
import { truncateText } from "./truncate-text.js";

/** Default cap on the text a tool returns to the model, in code points. */
export const DEFAULT_MAX_OUTPUT_CHARS = 50_000;

export interface ToolDefinition<Schema extends z.ZodType> {
  name: string;
  /** What the model reads to decide when to call the tool. */
  description: string;
  /**
   * The input's zod schema. Shipped tools wrap theirs in `z.lazy(() => …)`: the model is offered
   * the precomputed JSON schema, so a run builds only the zod schemas of the tools it calls.
   */
  inputSchema: Schema;
  kind: ToolKind;
  /**
   * Whether the tool can change anything outside itself (files, git, processes). Mutating calls of
   * one model turn run one at a time; read-only ones run in parallel. When in doubt, true.
   */
  mutates: boolean;
  /** The paths the call will touch, so the sandbox and deny rules can check every one first. */
  paths?: (input: z.infer<Schema>, context: ToolContext) => PathUse[];
  /** A short human preview for approval prompts (e.g. a diff or the command). */
  preview?: (input: z.infer<Schema>) => string;
  /** Cap on the output, in code points. Default DEFAULT_MAX_OUTPUT_CHARS. */
  maxOutputChars?: number;
  execute: (input: z.infer<Schema>, context: ToolContext) => Promise<ToolResult | string>;
}

/** A tool ready for the registry: it validates, runs, truncates and shapes errors itself. */
export interface Tool {
  name: string;
  description: string;
  kind: ToolKind;
  mutates: boolean;
  /** JSON schema of the input, as offered to the model. */
  inputJsonSchema: Record<string, unknown>;
  /** The zod schema the JSON schema comes from, for tools made by `defineTool`. */
  inputSchema?: z.ZodType;
  /** Parses raw arguments; returns the error text the model should see when they are invalid. */
  parse(rawInput: unknown): { ok: true; input: unknown } | { ok: false; error: string };
  pathsOf(input: unknown, context: ToolContext): PathUse[];
  previewOf(input: unknown): string | undefined;
  /** Runs a parsed input. Never throws: failures become `isError` results. */
  run(input: unknown, context: ToolContext): Promise<ToolResult>;
}

/** A failure a tool reports to the model (as opposed to a bug). */
export class ToolError extends NyzhiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("tool_failed", message, options);
  }
}

export function defineTool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>): Tool {
  return makeTool(definition, false);
}

/**
 * `defineTool` for the tools nyzhi ships: their JSON schema is taken from the build's precomputed
 * conversions (see precomputed-schemas.ts) instead of being converted at run time. Internal: a tool
 * defined elsewhere, even under a shipped tool's name, is always converted from its own schema.
 */
export function defineShippedTool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>): Tool {
  return makeTool(definition, true);
}

function makeTool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>, shipped: boolean): Tool {
  const maxChars = definition.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  // Made on first use: converted, or for a shipped tool taken from the precomputed table.
  let inputJsonSchema: Record<string, unknown> | undefined;
  return {
    name: definition.name,
    description: definition.description,
    kind: definition.kind,
    mutates: definition.mutates,
    inputSchema: definition.inputSchema,
    get inputJsonSchema() {
      inputJsonSchema ??= toolJsonSchema(definition.name, definition.inputSchema, { shipped });
      return inputJsonSchema;
    },
    parse(rawInput) {
      const parsed = definition.inputSchema.safeParse(rawInput ?? {}, WITHOUT_ZOD_JIT);
      if (parsed.success) return { ok: true, input: parsed.data };
      return { ok: false, error: formatValidationError(definition.name, parsed.error) };
    },
    pathsOf(input, context) {
      return definition.paths ? definition.paths(input as z.infer<Schema>, context) : [];
    },
    previewOf(input) {
      return definition.preview?.(input as z.infer<Schema>);
    },
    async run(input, context) {
      try {
        const result = await definition.execute(input as z.infer<Schema>, context);
        const shaped = typeof result === "string" ? { output: result } : result;
        return { ...shaped, output: truncateText(shaped.output, maxChars) };
      } catch (error) {
        if (context.signal.aborted) return { output: `${definition.name} was cancelled.`, isError: true };
        return { output: truncateText(errorMessage(error), maxChars), isError: true };
      }
    },
  };
}

function formatValidationError(toolName: string, error: z.ZodError): string {
  const problems = error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join(".") : "(arguments)";
    return `- ${where}: ${issue.message}`;
  });
  return `Invalid arguments for ${toolName}:\n${problems.join("\n")}`;
}
