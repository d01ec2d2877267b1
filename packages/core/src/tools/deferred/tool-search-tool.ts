import { z } from "zod";
import type { Tool } from "../seam/define-tool.js";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import type { ToolRegistry } from "../seam/tool-registry.js";
import type { ToolServices } from "../seam/tool-types.js";

/**
 * Service key under which the runtime puts the agent's own ToolRegistry, so `tool_search` searches
 * and expands the registry of the agent that calls it (a fenced subagent has its own copy).
 */
export const TOOL_REGISTRY_SERVICE = "toolRegistry";

/** At most this many matches are returned and expanded per search. */
export const MAX_TOOL_SEARCH_RESULTS = 10;

const inputSchema = z.lazy(() =>
  z.object({
    query: z
      .string()
      .min(1)
      .describe("Words that must all appear in the tool's name or description, or a regex."),
    search_type: z
      .enum(["keyword", "regex"])
      .default("keyword")
      .describe("keyword (default): every word must appear, case-insensitive; regex: a JavaScript regex."),
  }),
);

export const toolSearchTool: Tool = defineShippedTool({
  name: "tool_search",
  description:
    "Find tools that are available but not yet loaded (e.g. MCP server tools). Returns the matching tools' names, descriptions and input schemas, and loads them so you can call them from your next step.",
  inputSchema,
  kind: "read",
  mutates: false,
  async execute(input, context) {
    const registry = registryFrom(context.services);
    const matches = searchDeferredTools(registry, input.query, input.search_type);
    if (matches.length === 0) return noMatch(registry, input.query);
    const shown = matches.slice(0, MAX_TOOL_SEARCH_RESULTS);
    for (const tool of shown) registry.expand(tool.name);
    const sections = shown.map(
      (tool) =>
        `## ${tool.name}\n${tool.description}\n\nInput schema:\n${JSON.stringify(tool.inputJsonSchema)}`,
    );
    const more =
      matches.length > shown.length
        ? `\n\n${matches.length - shown.length} more tools matched; refine the query to see them.`
        : "";
    return `Found ${matches.length} tool(s); these are now loaded and can be called from your next step:\n\n${sections.join("\n\n")}${more}`;
  },
});

/**
 * The unexpanded deferred tools matching `query`, sorted by name. `keyword`: every whitespace-
 * separated word occurs in the name or description (case-insensitive); `regex`: the pattern
 * (case-insensitive) matches the name or description.
 */
export function searchDeferredTools(
  registry: ToolRegistry,
  query: string,
  searchType: "keyword" | "regex",
): Tool[] {
  const matches = matcherFor(query, searchType);
  return registry
    .deferredIndex()
    .map((summary) => registry.peek(summary.name))
    .filter((tool): tool is Tool => tool !== undefined && matches(`${tool.name}\n${tool.description}`));
}

function matcherFor(query: string, searchType: "keyword" | "regex"): (text: string) => boolean {
  if (searchType === "regex") {
    let pattern: RegExp;
    try {
      pattern = new RegExp(query, "i");
    } catch (error) {
      throw new ToolError(`Invalid regex '${query}': ${(error as Error).message}`);
    }
    return (text) => pattern.test(text);
  }
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return (text) => {
    const haystack = text.toLowerCase();
    return words.every((word) => haystack.includes(word));
  };
}

function registryFrom(services: ToolServices): ToolRegistry {
  const registry = services[TOOL_REGISTRY_SERVICE] as ToolRegistry | undefined;
  if (!registry) throw new ToolError("tool_search is not available here: the host set up no tool registry.");
  return registry;
}

function noMatch(registry: ToolRegistry, query: string): string {
  const index = registry.deferredIndex();
  if (index.length === 0)
    return "There are no unloaded tools to search: every available tool is already offered.";
  const names = index.slice(0, 50).map((summary) => summary.name);
  const more = index.length > names.length ? `, … (${index.length - names.length} more)` : "";
  return `No unloaded tool matches '${query}'. Try fewer or different words. Unloaded tools: ${names.join(", ")}${more}`;
}
