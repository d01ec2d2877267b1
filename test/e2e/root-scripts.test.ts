import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("root package.json scripts", () => {
  it("run files that the build produces (`pnpm test` builds first)", () => {
    const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const files = Object.values(scripts).flatMap((script) =>
      [...script.matchAll(/\bnode\s+([\w./-]+\.[cm]?js)\b/g)].map((match) => match[1] as string),
    );
    expect(files).toContain("packages/cli/dist/nyz.cjs");
    for (const file of files)
      expect({ file, exists: existsSync(join(root, file)) }).toEqual({ file, exists: true });
  });
});
