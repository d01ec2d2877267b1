import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * scripts/smoke-install.sh: packs every package, installs the `nyzhi` tarball alone into an empty
 * npm prefix with an empty cache and runs it from outside the repository (version, help, doctor,
 * an offline exec with a subagent against the mock, index and index search), installs it again
 * without optional dependencies, then installs `@nyzhi/core` from its tarballs and runs the
 * library examples against the mock. It needs the npm registry (the dependencies that are not
 * bundled come from it): without it the test is skipped, saying why. The suite has built
 * everything already (`pnpm test` builds first), so the script does not build again.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));

async function registryReachable(): Promise<string | undefined> {
  try {
    const response = await fetch("https://registry.npmjs.org/-/ping", {
      signal: AbortSignal.timeout(15_000),
    });
    return response.ok ? undefined : `the npm registry answered ${response.status}`;
  } catch (error) {
    return `the npm registry is not reachable (${(error as Error).message})`;
  }
}

function hasBash(): boolean {
  return spawnSync("bash", ["-c", "true"]).status === 0;
}

describe("scripts/smoke-install.sh", () => {
  it("installs the nyzhi tarball alone and runs it; installs @nyzhi/core from its tarballs and runs the examples", async (context) => {
    const unreachable = await registryReachable();
    const why = !hasBash() ? "bash is not installed" : unreachable;
    if (why) {
      console.warn(`smoke-install skipped: ${why}`);
      context.skip();
      return;
    }
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn("bash", ["scripts/smoke-install.sh"], {
        cwd: root,
        env: { ...process.env, SMOKE_SKIP_BUILD: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
      });
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("smoke: nyz exec ran a lead and an explorer against the mock");
    expect(result.stderr).toContain(
      "smoke: nyz index built the index and nyz index search found src/greeting.js",
    );
    expect(result.stderr).toContain("nyz index says how to install LanceDB");
    expect(result.stderr).toContain("smoke: all passed");
    // Sizes: label, MB, packages — one line per install.
    const sizes = result.stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t"));
    expect(sizes.map(([label]) => label)).toEqual([
      "nyz (with optional LanceDB and keyring)",
      "nyz (without optional dependencies: no code index, no keyring)",
      "@nyzhi/core (its five tarballs, no LanceDB)",
    ]);
    console.log(`smoke-install sizes:\n${result.stdout}`);
  }, 1_800_000);
});
