import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempProject } from "./helpers/run-nyz.js";

const dist = fileURLToPath(new URL("../../packages/cli/dist/", import.meta.url));
let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "nyzhi-code-cache-home-"));
});

const cacheFiles = async () => readdir(join(home, "cache", "v8")).catch(() => [] as string[]);

/** Loads `bundle` through the built loader in a fresh process; prints the cache status and a call. */
async function loadInChild(bundle: string): Promise<{ cache: string; greeting: string }> {
  const script = `
    const { loadBundleWithCodeCache } = require(${JSON.stringify(join(dist, "code-cache.cjs"))});
    const loaded = loadBundleWithCodeCache(${JSON.stringify(bundle)}, { version: "1.0.0" });
    const greeting = loaded.exports.greet("you");
    loaded.saveCodeCache();
    console.log(JSON.stringify({ cache: loaded.cache, greeting }));`;
  const result = spawnSync(process.execPath, ["-e", script], {
    encoding: "utf8",
    env: { ...process.env, NYZHI_HOME: home },
  });
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as { cache: string; greeting: string };
}

describe("V8 code cache of the CLI bundle", () => {
  it("is written by the first run and used by the next; a corrupt one is refused and rewritten", async () => {
    const bundle = join(home, "bundle.cjs");
    await writeFile(bundle, 'module.exports = { greet: (name) => "hello " + name };');
    expect(await loadInChild(bundle)).toEqual({ cache: "missing", greeting: "hello you" });
    expect(await loadInChild(bundle)).toEqual({ cache: "accepted", greeting: "hello you" });
    const [file] = await cacheFiles();
    await writeFile(join(home, "cache", "v8", file as string), "not V8 data");
    expect(await loadInChild(bundle)).toEqual({ cache: "rejected", greeting: "hello you" });
    expect(await loadInChild(bundle)).toEqual({ cache: "accepted", greeting: "hello you" });
  });

  it("nyz runs from the bundle, caches it in the cache dir, and gives the same output with the cache", async () => {
    const env = { NYZHI_HOME: home };
    const first = await runNyz(["--help"], { cwd: home, env });
    expect(first.code).toBe(0);
    const files = await cacheFiles();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^nyz-main-.*\.bin$/);
    const hash = (await readFile(join(dist, "nyz-main.cjs.sha256"), "utf8")).trim().slice(0, 16);
    expect(files[0]).toContain(hash);
    const second = await runNyz(["--help"], { cwd: home, env });
    expect(second).toEqual(first);
    const off = await mkdtemp(join(tmpdir(), "nyzhi-code-cache-off-"));
    expect(
      (await runNyz(["--help"], { cwd: off, env: { NYZHI_HOME: off, NYZHI_NO_CODE_CACHE: "1" } })).stdout,
    ).toBe(first.stdout);
    expect(await readdir(off)).not.toContain("cache");
  });

  it("nyz exec writes its cache once and leaves it alone after; with no writable cache dir it still runs", async () => {
    const mock = await startScenario({ rules: [{ response: { text: "All done." } }] });
    try {
      const project = await tempProject("nyzhi-code-cache-exec-");
      const exec = (env: Record<string, string>) =>
        runNyz(["exec", "-q", "hi"], { cwd: project, env: { ...anthropicEnv(mock, home), ...env } });
      const first = await exec({});
      expect(first.stdout.trim()).toBe("All done.");
      const files = (await cacheFiles()).filter((name) => name.endsWith("-headless.bin"));
      expect(files).toHaveLength(1);
      const file = join(home, "cache", "v8", files[0] as string);
      const written = await stat(file);
      expect((await exec({})).stdout.trim()).toBe("All done.");
      expect((await stat(file)).mtimeMs).toBe(written.mtimeMs);
      // The cache dir cannot be made (a file stands where it would be): the run is only slower.
      const blocked = join(home, "not-a-directory");
      await writeFile(blocked, "");
      const unwritable = await exec({ NYZHI_CACHE_DIR: join(blocked, "cache") });
      expect(unwritable.code).toBe(0);
      expect(unwritable.stdout.trim()).toBe("All done.");
      expect(unwritable.stderr).toBe("");
    } finally {
      await mock.close();
    }
  });

  it("ships an ASCII-only bundle (a one-byte source string) whose non-ASCII text still comes out right", async () => {
    const bundle = await readFile(join(dist, "nyz-main.cjs"), "latin1");
    expect(/[^\x00-\x7f]/.test(bundle)).toBe(false);
    const result = await runNyz(["models"], { cwd: home, env: { NYZHI_HOME: home } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("budget \u226432K"); // "≤", escaped in the bundle
  });

  it("a bin without its bundle says which file is missing and how to fix it", async () => {
    const lonely = join(home, "nyz.cjs");
    await writeFile(lonely, await readFile(join(dist, "nyz.cjs")));
    const version = spawnSync(process.execPath, [lonely, "--version"], { encoding: "utf8" });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const result = spawnSync(process.execPath, [lonely, "--help"], { encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(join(home, "nyz-main.cjs"));
    expect(result.stderr).toContain("npm install -g nyzhi");
  });
});
