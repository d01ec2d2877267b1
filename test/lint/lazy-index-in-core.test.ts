import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// @nyzhi/index (the chunker, tree-sitter's loader, LanceDB's opener) is evaluated only when a session
// opens or builds an index: core reaches its values through `await import("@nyzhi/index")`, so
// starting `nyz exec` or the app never evaluates it (issue 32, decision 019). Types are free.
const root = fileURLToPath(new URL("../..", import.meta.url));

function files(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("core and @nyzhi/index", () => {
  it("imports no value of @nyzhi/index at the top of a module", () => {
    const eager: string[] = [];
    for (const file of files(join(root, "packages/core/src"))) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/^import\s+(type\s+)?[^;]*?from\s+"@nyzhi\/index";/gms)) {
        const clause = match[0];
        const typesOnly = match[1] !== undefined || /^import\s*\{(\s*type\s+[^,}]+,?)+\s*\}/.test(clause);
        if (!typesOnly) eager.push(`${relative(root, file)}: ${clause.replace(/\s+/g, " ")}`);
      }
    }
    expect(eager).toEqual([]);
  });
});
