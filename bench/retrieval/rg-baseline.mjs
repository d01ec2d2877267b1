// The grep baseline: `rg` over the words of the query, files ranked by how many of the query's
// words they contain, then by how many matches. Words are 3+ letters, common English stop words
// left out, matched case-insensitively as fixed strings (so `redirect` also finds `redirects`).
import { spawnSync } from "node:child_process";

const STOP_WORDS = new Set(
  "the a an and or of to in on for is are be by with from that this it its as at how does do what which where when why into out".split(
    " ",
  ),
);

export function queryWords(query) {
  return [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^a-z0-9_]+/)
        .filter((word) => word.length >= 3 && !STOP_WORDS.has(word)),
    ),
  ];
}

/**
 * Files of `root` in rg's order for `query` (`{ path, symbol: undefined }`). `cache` (a Map,
 * saved by the caller) keeps answers between runs: the code bases are pinned, so they cannot change.
 */
export function rgSearch(root, query, cache) {
  const cacheKey = `${root}\n${query}`;
  if (cache?.has(cacheKey)) return cache.get(cacheKey);
  const files = rgFiles(root, query);
  cache?.set(cacheKey, files);
  return files;
}

function rgFiles(root, query) {
  const perFile = new Map();
  for (const word of queryWords(query)) {
    const result = spawnSync("rg", ["--no-ignore-parent", "--count-matches", "-i", "-F", word, "--", "."], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    if (result.error) throw result.error;
    for (const line of result.stdout.split("\n")) {
      const at = line.lastIndexOf(":");
      if (at < 0) continue;
      const path = line.slice(0, at).replace(/^\.\//, "");
      const entry = perFile.get(path) ?? { words: 0, matches: 0 };
      entry.words += 1;
      entry.matches += Number(line.slice(at + 1));
      perFile.set(path, entry);
    }
  }
  return [...perFile.entries()]
    .sort(
      ([leftPath, left], [rightPath, right]) =>
        right.words - left.words || right.matches - left.matches || (leftPath < rightPath ? -1 : 1),
    )
    .slice(0, 10)
    .map(([path]) => ({ path, symbol: undefined }));
}

export function hasRg() {
  return spawnSync("rg", ["--version"]).status === 0;
}
