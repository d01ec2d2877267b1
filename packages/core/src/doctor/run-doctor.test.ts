import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDoctorReport } from "./format-doctor-report.js";
import { runDoctor } from "./run-doctor.js";

async function tempHome(): Promise<string> {
  return mkdtemp(join(tmpdir(), "nyzhi-doctor-"));
}

/** Every executable answers with a version, as if installed; records what was asked. */
function fakeProbe(asked: string[][], missing: string[] = []) {
  return async (file: string, args: readonly string[]) => {
    asked.push([file, ...args]);
    return missing.includes(file) ? undefined : `${file} 1.0`;
  };
}

describe("runDoctor", () => {
  it("checks tmux with -V, ripgrep and git with --version, and passes with a clean home", async () => {
    const home = await tempHome();
    const asked: string[][] = [];
    const report = await runDoctor({
      cwd: home,
      env: {
        NYZHI_HOME: home,
        NYZHI_CREDENTIAL_STORE: "file",
        ANTHROPIC_API_KEY: "sk-ant-doctor-test-0123456789",
      },
      probe: fakeProbe(asked),
      platform: "darwin",
    });
    expect(asked.sort()).toEqual([
      ["git", "--version"],
      ["rg", "--version"],
      ["tmux", "-V"],
    ]);
    expect(report.checks.map((check) => check.id)).toEqual([
      "node",
      "sandbox",
      "ripgrep",
      "git",
      "tmux",
      "keychain",
      "credentials",
      "proxy",
      "trust",
      "index",
      "config",
    ]);
    expect(report.failed).toBe(false);
    const credentials = report.checks.find((check) => check.id === "credentials");
    expect(credentials?.state).toBe("ok");
    expect(credentials?.details).toContain("anthropic: ANTHROPIC_API_KEY");
    // The key's value is never printed.
    expect(formatDoctorReport(report)).not.toContain("sk-ant-doctor");
  });

  it("fails on an old Node, a missing CA file and a broken config, each with its fix", async () => {
    const home = await tempHome();
    await mkdir(join(home, "config"), { recursive: true });
    await writeFile(join(home, "config", "config.toml"), "[agent\nmax_steps = 3\n");
    const report = await runDoctor({
      cwd: home,
      env: {
        NYZHI_HOME: home,
        NYZHI_CREDENTIAL_STORE: "file",
        NODE_EXTRA_CA_CERTS: join(home, "no-such-ca.pem"),
      },
      probe: fakeProbe([], ["tmux", "rg"]),
      nodeVersion: "18.19.0",
      platform: "darwin",
    });
    expect(report.failed).toBe(true);
    const byId = Object.fromEntries(report.checks.map((check) => [check.id, check]));
    expect(byId.node).toMatchObject({ state: "problem", summary: "Node 18.19.0: too old" });
    expect(byId.node?.fix).toContain("install Node 20");
    expect(byId.proxy).toMatchObject({ state: "problem" });
    expect(byId.proxy?.fix).toContain("NODE_EXTRA_CA_CERTS");
    expect(byId.config).toMatchObject({ state: "problem" });
    expect(byId.config?.summary).toContain("config.toml");
    expect(byId.tmux).toMatchObject({ state: "warning", summary: "tmux: not found" });
    expect(byId.ripgrep?.state).toBe("warning");
    expect(byId.credentials).toMatchObject({ state: "warning" });
    const text = formatDoctorReport(report);
    expect(text).toContain("✗ Node 18.19.0: too old");
    expect(text).toContain("fix: install Node 20");
    expect(text).toMatch(/3 problems to fix \(✗\) before nyzhi can work/);
  });

  it("lists config warnings and masks a proxy password", async () => {
    const home = await tempHome();
    await mkdir(join(home, "config"), { recursive: true });
    await writeFile(join(home, "config", "config.toml"), "[agent]\nmax_stepz = 3\n");
    const report = await runDoctor({
      cwd: home,
      env: { NYZHI_HOME: home, NYZHI_CREDENTIAL_STORE: "file", HTTPS_PROXY: "http://me:hunter2@proxy:8080" },
      probe: fakeProbe([]),
      platform: "darwin",
    });
    const byId = Object.fromEntries(report.checks.map((check) => [check.id, check]));
    expect(byId.config?.state).toBe("warning");
    expect(byId.config?.details?.join("\n")).toContain("max_stepz");
    expect(byId.proxy?.details).toEqual(["HTTPS_PROXY=http://me:***@proxy:8080"]);
    expect(report.failed).toBe(false);
  });
});
