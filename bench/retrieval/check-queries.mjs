// Checks that every query's judged answer exists in the indexed copy (its file, and its symbol
// among the chunker's symbols of that file), and lists paraphrases that share a word with the
// name of their answer (they should describe it without its words).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chunkFile, splitIdentifier } from "../../packages/index/dist/index.js";
import { symbolMatches } from "./judge.mjs";

const asList = (value) => (Array.isArray(value) ? value : [value]);
const stem = (word) => word.replace(/(ing|ed|es|s)$/, "");

export async function checkJudgements(queries, projects) {
  const errors = [];
  const warnings = [];
  const symbolsOf = new Map();
  const symbols = async (corpus, path) => {
    const id = `${corpus}/${path}`;
    if (!symbolsOf.has(id)) {
      const content = readFileSync(join(projects[corpus], path), "utf8");
      symbolsOf.set(id, (await chunkFile({ path, content })).map((chunk) => chunk.symbol).filter(Boolean));
    }
    return symbolsOf.get(id);
  };
  for (const query of queries) {
    const files = asList(query.file).filter((path) => existsSync(join(projects[query.corpus], path)));
    if (files.length < asList(query.file).length) errors.push(`"${query.q}": a judged file is missing`);
    if (query.symbol !== undefined) {
      for (const name of asList(query.symbol)) {
        const found = [];
        for (const path of files) found.push(...(await symbols(query.corpus, path)));
        if (!found.some((symbol) => symbolMatches(name, symbol)))
          errors.push(`"${query.q}": no symbol ${name} in ${files.join(", ")}`);
      }
    }
    if (query.kind === "paraphrase") {
      const names =
        query.symbol !== undefined
          ? asList(query.symbol)
          : asList(query.file).map((path) => path.split("/").pop().replace(/\..*$/, ""));
      const nameWords = new Set(
        names
          .flatMap((name) => name.split(/[^A-Za-z0-9]+/).flatMap(splitIdentifier))
          .filter((word) => word.length > 2)
          .map(stem),
      );
      const shared = query.q
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((word) => nameWords.has(stem(word)));
      if (shared.length > 0) warnings.push(`"${query.q}" (${[...new Set(shared)].join(", ")})`);
    }
  }
  return { errors, warnings };
}
