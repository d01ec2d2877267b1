import { resolve } from "node:path";
import { z } from "zod";
import { CODE_INDEX_SERVICE, type CodeIndexService } from "../../code-index/code-index-service.js";
import { formatSearchHits, type SearchHit } from "../../code-index/format-search-hits.js";
import { fullTextFallback } from "../../code-index/full-text-fallback.js";
import { defineShippedTool } from "../seam/define-tool.js";
import { projectRootOf } from "../seam/tool-types.js";

/** Results when `k` is not given. */
export const DEFAULT_SEMANTIC_RESULTS = 10;

const inputSchema = z.lazy(() =>
  z.object({
    query: z
      .string()
      .min(1)
      .describe("What you are looking for, in words or identifiers: 'where the config file is parsed'."),
    k: z.number().int().min(1).max(50).optional().describe("Most results (default 10)."),
    path: z
      .string()
      .min(1)
      .optional()
      .describe("Only files matching this glob, relative to the project root."),
    language: z.string().min(1).optional().describe("Only this language: typescript, python, go, rust, etc."),
  }),
);

export const semanticSearchTool = defineShippedTool({
  name: "semantic_search",
  description:
    "Search the project's code index by meaning and identifiers: returns the best-matching functions, classes and text chunks with path, lines, symbol, score and a snippet. Use it to find where something is done when you do not know the exact text; use grep for exact strings.",
  inputSchema,
  kind: "read",
  mutates: false,
  async execute(input, context) {
    const k = input.k ?? DEFAULT_SEMANTIC_RESULTS;
    const service = context.services[CODE_INDEX_SERVICE] as CodeIndexService | undefined;
    const filters = {
      k,
      ...(input.path ? { path: input.path } : {}),
      ...(input.language ? { language: input.language } : {}),
    };
    const canRead = (absolutePath: string) =>
      context.paths.resolve(absolutePath, "read").then(
        () => true,
        () => false,
      );
    const found = await service?.search(input.query, { ...filters, signal: context.signal });
    if (found && service) {
      // The index leaves out deny_paths it can see as globs; a path denied otherwise (absolute or
      // `~` rules, blocked dotfiles, rules added after the build) is dropped here, as `read` would refuse it.
      const allowed = await Promise.all(found.map((hit) => canRead(resolve(service.root, hit.path))));
      const hits: SearchHit[] = found
        .filter((_, index) => allowed[index])
        .map((hit) => ({ ...hit, source: "index" }));
      return hits.length > 0
        ? formatSearchHits(hits)
        : "No relevant results found. Try rephrasing, or use grep for exact matches.";
    }
    const fallback = await fullTextFallback(
      projectRootOf(context),
      input.query,
      { k, ...(input.path ? { path: input.path } : {}), canRead },
      context.signal,
    );
    const note = service?.building
      ? "The code index is being built; these are full-text matches over the files meanwhile."
      : "There is no code index for this project yet (it is built by `nyz index`, or in the background when index.auto is on); these are full-text matches over the files.";
    return fallback.length > 0
      ? `${note}\n\n${formatSearchHits(fallback)}`
      : `${note}\n\nNo matches. Try other words, or use grep for exact matches.`;
  },
});
