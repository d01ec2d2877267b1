// How a query's answer is judged and how ranks become figures. A query names its answer's file
// (or several acceptable files) and, when it is judged at the level of a symbol, the symbol (or
// several): a result counts when its path is one of the files and its symbol is one of the
// symbols or a member of one (`Session` accepts `Session.send`).

const asList = (value) => (Array.isArray(value) ? value : [value]);

export function symbolMatches(expected, symbol) {
  if (!symbol) return false;
  return asList(expected).some((name) => symbol === name || symbol.startsWith(`${name}.`));
}

/**
 * The 1-based rank of the first acceptable answer among the distinct units of `results` (files
 * for a file-level query, file and symbol for a symbol-level one), or undefined.
 * `results` are `{ path, symbol }` in rank order. `level: "file"` judges a symbol query by its file.
 */
export function rankOf(query, results, options = {}) {
  const files = asList(query.file);
  const bySymbol = query.symbol !== undefined && options.level !== "file";
  const seen = new Set();
  for (const result of results) {
    const unit = bySymbol ? `${result.path}#${result.symbol ?? ""}` : result.path;
    if (seen.has(unit)) continue;
    seen.add(unit);
    if (files.includes(result.path) && (!bySymbol || symbolMatches(query.symbol, result.symbol)))
      return seen.size;
  }
  return undefined;
}

/** R@1, R@5, R@10 and MRR@10 of a list of ranks. */
export function figures(ranks) {
  const count = ranks.length;
  const within = (k) => ranks.filter((rank) => rank !== undefined && rank <= k).length / count;
  const mrr = ranks.reduce((sum, rank) => sum + (rank === undefined || rank > 10 ? 0 : 1 / rank), 0) / count;
  return { count, r1: within(1), r5: within(5), r10: within(10), mrr };
}

/** The groups the tables show: everything, each kind, file-level ("where …") questions, tuning and held-out sets. */
export function groups(queries, holdout) {
  return [
    ["all", () => true],
    ["identifier", (query) => query.kind === "identifier"],
    ["question", (query) => query.kind === "question"],
    ["paraphrase", (query) => query.kind === "paraphrase"],
    ["file-level (where …)", (query) => query.symbol === undefined],
    ["tuning set", (query) => !holdout.includes(query.corpus)],
    [`held out (${holdout.join(", ")})`, (query) => holdout.includes(query.corpus)],
  ].map(([name, test]) => ({
    name,
    indexes: queries.flatMap((query, index) => (test(query) ? [index] : [])),
  }));
}
