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

/** One line per deferred tool, as `tool_search` and the system prompt list them. */
export interface DeferredToolSummary {
  name: string;
  /** The first line of the tool's description. */
  description: string;
}

/**
 * The tools one agent may use. Registration order does not matter: definitions are offered to the
 * model sorted by name, so prompts are stable (and cacheable) across runs.
 *
 * Deferred tools (many MCP tools, say) are registered but not offered: `definitions()` leaves them
 * out until they are expanded, which keeps the request small. A deferred tool is expanded by
 * `expand(name)` (what `tool_search` does with its matches) or on first use: `get(name)` is what
 * the loop calls when the model calls a tool, so a model that already knows a deferred tool's name
 * can call it, the call runs, and the tool is offered from the next step on. `peek(name)` looks a
 * tool up without expanding it.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  /** Names registered deferred and not yet expanded. */
  private readonly hidden = new Set<string>();
  /** A deferred tool's family (`git`, `agents` …): expanding one member expands the others. */
  readonly #groups = new Map<string, string>();
  /** Every tool sorted by name, kept between changes: definitions are built for every request. */
  #sorted: Tool[] | undefined;

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: Tool): void {
    this.#sorted = undefined;
    this.tools.set(tool.name, tool);
    this.hidden.delete(tool.name);
  }

  /**
   * Registers a tool that is callable by name but not offered until expanded (see the class doc).
   * With a `group`, expanding any deferred tool of that group expands them all (`spawn_agent` used
   * brings `wait`).
   */
  registerDeferred(tool: Tool, options: { group?: string | undefined } = {}): void {
    this.#sorted = undefined;
    this.tools.set(tool.name, tool);
    this.hidden.add(tool.name);
    if (options.group) this.#groups.set(tool.name, options.group);
  }

  unregister(name: string): void {
    this.#sorted = undefined;
    this.tools.delete(name);
    this.hidden.delete(name);
    this.#groups.delete(name);
  }

  /** Looks a tool up for a call; a deferred tool is expanded by it (offered from then on). */
  get(name: string): Tool | undefined {
    const tool = this.tools.get(name);
    if (tool) this.expand(name);
    return tool;
  }

  /** Looks a tool up without expanding it. */
  peek(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** True while `name` is registered deferred and not yet expanded (so not offered). */
  isDeferred(name: string): boolean {
    return this.hidden.has(name);
  }

  /**
   * Offers a deferred tool (and the deferred tools of its group) from now on. Returns false when it
   * was not deferred (or is unknown).
   */
  expand(name: string): boolean {
    if (!this.hidden.delete(name)) return false;
    const group = this.#groups.get(name);
    if (group)
      for (const other of [...this.hidden]) if (this.#groups.get(other) === group) this.hidden.delete(other);
    return true;
  }

  /** How many deferred tools are still unexpanded. */
  deferredCount(): number {
    return this.hidden.size;
  }

  /** The unexpanded deferred tools, sorted by name, with the first line of each description. */
  deferredIndex(): DeferredToolSummary[] {
    return [...this.hidden].sort().map((name) => ({
      name,
      description: firstLine(this.tools.get(name)?.description ?? ""),
    }));
  }

  /** Every registered tool name, deferred ones included, sorted. */
  names(): string[] {
    return [...this.tools.keys()].sort();
  }

  /** Every registered tool, deferred ones included, sorted by name. */
  list(): Tool[] {
    return [...this.#sortedTools()];
  }

  #sortedTools(): Tool[] {
    this.#sorted ??= this.names().map((name) => this.tools.get(name)!);
    return this.#sorted;
  }

  /** A new registry with only the tools the fence lets through; deferred tools stay deferred. */
  filtered(fence: {
    allowed?: readonly string[] | undefined;
    disallowed?: readonly string[] | undefined;
  }): ToolRegistry {
    const allowed = new Set(filterToolNames(this.names(), fence));
    return this.copyWhere((tool) => allowed.has(tool.name));
  }

  /** A new registry without tools that mutate (plan mode, read-only roles); deferred stay deferred. */
  readOnly(): ToolRegistry {
    return this.copyWhere((tool) => !tool.mutates);
  }

  /** Definitions as offered to the model, sorted by name; unexpanded deferred tools are left out. */
  definitions(): ModelToolDefinition[] {
    return this.#sortedTools()
      .filter((tool) => !this.hidden.has(tool.name))
      .map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputJsonSchema,
      }));
  }

  private copyWhere(keep: (tool: Tool) => boolean): ToolRegistry {
    const copy = new ToolRegistry();
    for (const tool of this.list()) {
      if (!keep(tool)) continue;
      if (this.hidden.has(tool.name)) copy.registerDeferred(tool, { group: this.#groups.get(tool.name) });
      else copy.register(tool);
    }
    return copy;
  }
}

function firstLine(text: string): string {
  return text.trim().split("\n", 1)[0]?.trim() ?? "";
}
