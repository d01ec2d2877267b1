import { z } from "zod";
import { comparePaths, walkFiles } from "../../engines/file-walk/walk-files.js";
import { defineShippedTool } from "../seam/define-tool.js";

/** Files considered at most (the first ones in walk order). */
export const MAX_FUZZY_FILES = 10_000;

const inputSchema = z.lazy(() =>
  z.object({
    query: z
      .string()
      .min(1)
      .describe("Characters of the path in order, e.g. 'usrctl' for src/user/user-controller.ts."),
    max_results: z.number().int().min(1).max(200).optional().describe("Default 20."),
  }),
);

export const fuzzyFindTool = defineShippedTool({
  name: "fuzzy_find",
  description:
    "Find files whose path fuzzily matches a query (characters in order, like an editor's file finder). Best matches first.",
  inputSchema,
  kind: "read",
  mutates: false,
  paths: () => [{ path: ".", access: "read" }],
  async execute(input, context) {
    const root = await context.paths.resolve(".", "read");
    const query = input.query.toLowerCase().replace(/\s+/g, "");
    const scored: { path: string; score: number }[] = [];
    let seen = 0;
    for await (const file of walkFiles({ root, signal: context.signal })) {
      seen += 1;
      if (seen > MAX_FUZZY_FILES) break;
      const score = fuzzyScore(file.relative, query);
      if (score !== undefined) scored.push({ path: file.relative, score });
    }
    scored.sort(
      (left, right) =>
        right.score - left.score ||
        left.path.length - right.path.length ||
        comparePaths(left.path, right.path),
    );
    const best = scored.slice(0, input.max_results ?? 20);
    if (best.length === 0) return `No files match '${input.query}'`;
    return best.map((entry) => entry.path).join("\n");
  },
});

/**
 * Scores `path` for a lower-case `query` whose characters must appear in order; undefined when they
 * do not. Consecutive characters, characters at word starts (after `/`, `-`, `_`, `.`, or a
 * camelCase hump) and matches inside the file name score higher; gaps cost a little.
 */
export function fuzzyScore(path: string, query: string): number | undefined {
  const slash = path.lastIndexOf("/");
  const whole = greedyScore(path, query, 0);
  const inName = greedyScore(path, query, slash + 1);
  if (whole === undefined) return undefined;
  return Math.max(whole, inName === undefined ? whole : inName + 20);
}

function greedyScore(path: string, query: string, from: number): number | undefined {
  const lower = path.toLowerCase();
  let score = 0;
  let position = from;
  let previous = -2;
  for (const char of query) {
    const index = lower.indexOf(char, position);
    if (index === -1) return undefined;
    score += 1;
    if (index === previous + 1) score += 5;
    else if (previous >= 0) score -= Math.min(3, (index - previous - 1) * 0.1);
    if (isWordStart(path, index)) score += 4;
    previous = index;
    position = index + 1;
  }
  return score;
}

function isWordStart(path: string, index: number): boolean {
  if (index === 0) return true;
  const before = path[index - 1]!;
  if ("/-_. ".includes(before)) return true;
  const char = path[index]!;
  return char !== char.toLowerCase() && before === before.toLowerCase();
}
