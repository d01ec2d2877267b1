import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dist = fileURLToPath(new URL("../../dist/index.js", import.meta.url));

/** Which modules whose path mentions the keyring addon are loaded after `script` runs. */
function keyringModulesAfter(script: string): string[] {
  const result = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { createRequire } from "node:module";
       const auth = await import(${JSON.stringify(dist)});
       ${script}
       const cache = createRequire(import.meta.url).cache;
       console.log(JSON.stringify(Object.keys(cache).filter((path) => path.includes("keyring"))));`,
    ],
    { encoding: "utf8", env: { ...process.env, NYZHI_LOG: "silent" } },
  );
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout.trim()) as string[];
}

describe("the keyring addon (built package)", () => {
  it("is not loaded by importing @nyzhi/auth, only by the first keychain call", () => {
    expect(keyringModulesAfter("")).toEqual([]);
    const afterProbe = keyringModulesAfter(
      `await auth.probeKeychain({ service: "nyzhi-lazy-test", timeoutMs: 1500 }).catch(() => {});`,
    );
    expect(afterProbe.some((path) => path.endsWith(".node") || path.includes("@napi-rs"))).toBe(true);
  });
});
