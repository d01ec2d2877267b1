import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/** `nyz doctor` on the built bin: one line per check, fixes for problems, exit 1 when one is required. */
describe("nyz doctor", () => {
  it("reports every check and exits 0 when nothing required is missing", async () => {
    const home = await tempHome();
    const project = await tempProject("nyzhi-doctor-");
    const result = await runNyz(["doctor"], {
      cwd: project,
      env: {
        NYZHI_HOME: home,
        NYZHI_CREDENTIAL_STORE: "file",
        OPENAI_API_KEY: "sk-doctor-test-0123456789abcdef",
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^✓ Node \d+\.\d+\.\d+$/m);
    for (const check of [
      "sandbox: ",
      "credentials: openai",
      "proxy: ",
      `project ${project}`,
      "code index: ",
      "config: ",
    ]) {
      expect(result.stdout).toContain(check);
    }
    expect(result.stdout).toMatch(/^(✓|!) (tmux|tmux: not found)/m);
    expect(result.stdout).not.toContain("sk-doctor-test");
    expect(result.stdout).toMatch(/^Everything nyzhi needs is here/m);
  });

  it("exits 1 on a broken config file, naming it with the fix; --json gives the checks", async () => {
    const home = await tempHome();
    const project = await tempProject("nyzhi-doctor-");
    await mkdir(join(home, "config"), { recursive: true });
    await writeFile(join(home, "config", "config.toml"), "[agent\n");
    const result = await runNyz(["doctor"], {
      cwd: project,
      env: { NYZHI_HOME: home, NYZHI_CREDENTIAL_STORE: "file" },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^✗ config: .*config\.toml/m);
    expect(result.stdout).toContain("fix: fix the file and key named");
    const json = await runNyz(["doctor", "--json"], {
      cwd: project,
      env: { NYZHI_HOME: home, NYZHI_CREDENTIAL_STORE: "file" },
    });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { failed: boolean; checks: { id: string; state: string }[] };
    expect(report.failed).toBe(true);
    expect(report.checks.find((check) => check.id === "config")?.state).toBe("problem");
  });
});
