import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));

async function depcruise(target: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(
      "node",
      [
        "node_modules/dependency-cruiser/bin/dependency-cruise.mjs",
        target,
        "--config",
        ".dependency-cruiser.cjs",
        "--output-type",
        "err",
      ],
      { cwd: root },
    );
    return { code: 0, output: stdout };
  } catch (error) {
    const failure = error as { code: number; stdout: string };
    return { code: failure.code, output: failure.stdout };
  }
}

// depcruise reads the whole tree: tens of seconds on a loaded 2-core machine.
describe("the project's dependency rules", { timeout: 120_000 }, () => {
  it("report an upward import, an import up core's floors and a cycle in the fixture tree, and nothing else", async () => {
    const { code, output } = await depcruise("test/lint/fixture-tree/packages");
    expect(code).not.toBe(0);
    const violations = output
      .split("\n")
      .filter((line) => line.includes("error "))
      .map((line) => line.replace(/\s+/g, " ").trim());
    expect(violations).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /layer-config: test\/lint\/fixture-tree\/packages\/config\/src\/index\.ts → test\/lint\/fixture-tree\/packages\/auth\/src\/index\.ts/,
        ),
        expect.stringMatching(/no-circular: test\/lint\/fixture-tree\/packages\/core\/src\/a\.ts →/),
        expect.stringMatching(
          /core-floor-engines-glob: test\/lint\/fixture-tree\/packages\/core\/src\/engines\/glob\/reaches-up\.ts → test\/lint\/fixture-tree\/packages\/core\/src\/runtime\/assemble\.ts/,
        ),
      ]),
    );
    // auth → config is allowed, so ok.ts must not be reported.
    expect(output).not.toMatch(/layer-auth/);
  });

  it("pass on the real packages", async () => {
    const { code, output } = await depcruise("packages");
    expect(output).toMatch(/no dependency violations found/);
    expect(code).toBe(0);
  });
});
