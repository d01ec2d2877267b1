import type { ToolDefinition as ModelToolDefinition } from "@nyzhi/provider";
import type { Tool } from "./define-tool.js";

/** Matches a tool name against a pattern where `*` stands for any run of characters. */
export function matchesToolPattern(name: string, pattern: string): boolean {
  if (!pattern.includes("*")) return name.toLowerCase() === pattern.toLowerCase();
  const escaped = pattern
    .split("*")
    .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${escaped}$`, "i").test(name);
}

/** Applies an allow list (undefined = everything) then a deny list, both with `*` patterns. */
export function filterToolNames(
  names: readonly string[],
  fence: { allowed?: readonly string[] | undefined; disallowed?: readonly string[] | undefined },
): string[] {
  return names.filter((name) => {
    if (fence.allowed && !fence.allowed.some((pattern) => matchesToolPattern(name, pattern))) return false;
    if (fence.disallowed?.some((pattern) => matchesToolPattern(name, pattern))) return false;
    return true;
  });
}

/**
 * The tools one agent may use. Registration order does not matter: definitions are offered to the
 * model sorted by name, so prompts are stable (and cacheable) across runs.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: Tool): void {
    this.tools.set(tool.name, tool);
  }

  unregister(name: string): void {
    this.tools.delete(name);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  names(): string[] {
    return [...this.tools.keys()].sort();
  }

  list(): Tool[] {
    return this.names().map((name) => this.tools.get(name)!);
  }

  /** A new registry with only the tools the fence lets through. */
  filtered(fence: {
    allowed?: readonly string[] | undefined;
    disallowed?: readonly string[] | undefined;
  }): ToolRegistry {
    return new ToolRegistry(filterToolNames(this.names(), fence).map((name) => this.tools.get(name)!));
  }

  /** A new registry without tools that mutate (plan mode, read-only roles). */
  readOnly(): ToolRegistry {
    return new ToolRegistry(this.list().filter((tool) => !tool.mutates));
  }

  /** Definitions as offered to the model, sorted by name. */
  definitions(): ModelToolDefinition[] {
    return this.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputJsonSchema,
    }));
  }
}
