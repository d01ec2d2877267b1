import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import Module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveDirs } from "@nyzhi/config";
import { beforeEach, describe, expect, it } from "vitest";
import {
  cacheDirectory,
  codeCachePath,
  loadBundleWithCodeCache,
  readWholeFile,
  readWrappedSource,
} from "./code-cache.js";

let directory: string;
let bundle: string;
let env: Record<string, string>;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "nyzhi-code-cache-"));
  bundle = join(directory, "bundle.cjs");
  await writeFile(
    bundle,
    `const path = require("node:path");
     function greet(name) { return "hello " + name + " from " + path.basename(__filename); }
     module.exports = { greet };`,
  );
  env = { NYZHI_HOME: join(directory, "home") };
});

// Loading twice in one process would hit V8's in-memory compilation cache, which hides whether the
// cached data was used; test/e2e/code-cache.test.ts checks that across processes.
describe("loadBundleWithCodeCache", () => {
  it("keys the cache by build: a changed bundle of the same length never meets the old cache", async () => {
    loadBundleWithCodeCache(bundle, { version: "1.0.0", env }).saveCodeCache();
    const before = codeCachePath(bundle, "1.0.0", env);
    const source = await readFile(bundle, "utf8");
    await writeFile(bundle, source.replace("hello", "howdy"));
    await writeFile(`${bundle}.sha256`, "0123456789abcdef0123\n");
    expect(codeCachePath(bundle, "1.0.0", env)).not.toBe(before);
    const loaded = loadBundleWithCodeCache<{ greet(name: string): string }>(bundle, {
      version: "1.0.0",
      env,
    });
    expect(loaded.cache).toBe("missing");
    expect(loaded.exports.greet("x")).toBe("howdy x from bundle.cjs");
    loaded.saveCodeCache();
    // Writing the new build's cache removed the old one.
    expect(await readdir(join(env.NYZHI_HOME as string, "cache", "v8"))).toEqual([
      codeCachePath(bundle, "1.0.0", env).split(/[\\/]/).pop(),
    ]);
  });

  it("keeps one cache per variant of a build", () => {
    loadBundleWithCodeCache(bundle, { version: "1.0.0", env, variant: "headless" }).saveCodeCache();
    loadBundleWithCodeCache(bundle, { version: "1.0.0", env, variant: "commands" }).saveCodeCache();
    const names = [
      codeCachePath(bundle, "1.0.0", env, "commands"),
      codeCachePath(bundle, "1.0.0", env, "headless"),
    ].map((path) => path.split(/[\\/]/).pop());
    return expect(readdir(join(env.NYZHI_HOME as string, "cache", "v8"))).resolves.toEqual(names);
  });

  it("keeps the caches of two bundles (the commands' and the index child's) side by side", async () => {
    const other = join(directory, "index-process.cjs");
    await writeFile(other, "module.exports = { main: () => 0 };");
    loadBundleWithCodeCache(bundle, { version: "1.0.0", env }).saveCodeCache();
    loadBundleWithCodeCache(other, { version: "1.0.0", env, variant: "index-process" }).saveCodeCache();
    const names = [codeCachePath(bundle, "1.0.0", env), codeCachePath(other, "1.0.0", env, "index-process")]
      .map((path) => path.split(/[\\/]/).pop())
      .sort();
    expect(await readdir(join(env.NYZHI_HOME as string, "cache", "v8"))).toEqual(names);
  });

  it("is off with NYZHI_NO_CODE_CACHE", () => {
    const loaded = loadBundleWithCodeCache(bundle, {
      version: "1.0.0",
      env: { ...env, NYZHI_NO_CODE_CACHE: "1" },
    });
    expect(loaded.cache).toBe("off");
    loaded.saveCodeCache();
    expect(() => codeCachePath(bundle, "1.0.0", env)).not.toThrow();
  });
});

describe("readWrappedSource", () => {
  it("gives the bundle inside Node's CommonJS wrapper, decoded as UTF-8", async () => {
    const text = `${"x".repeat(70_000)}\nmodule.exports = "h\u00e9 \u2264";`;
    await writeFile(bundle, text);
    expect(readWrappedSource(bundle).source).toBe(Module.wrap(text));
    await writeFile(bundle, "");
    expect(readWrappedSource(bundle).source).toBe(Module.wrap(""));
  });
});

describe("readWholeFile", () => {
  it("reads into the given buffer when the file fits, else into a new one", async () => {
    await writeFile(bundle, "cached data");
    const spare = Buffer.alloc(64, "-");
    const fitted = readWholeFile(bundle, spare);
    expect(fitted.toString()).toBe("cached data");
    expect(fitted.buffer).toBe(spare.buffer);
    const small = Buffer.alloc(4);
    const fresh = readWholeFile(bundle, small);
    expect(fresh.toString()).toBe("cached data");
    expect(fresh.buffer).not.toBe(small.buffer);
    expect(readWholeFile(bundle).toString()).toBe("cached data");
  });
});

describe("cacheDirectory", () => {
  it("agrees with resolveDirs().cache from @nyzhi/config", () => {
    for (const environment of [
      { NYZHI_HOME: "/tmp/nyzhi-home" },
      { HOME: "/home/ada", XDG_CACHE_HOME: "/var/cache/ada" },
      { HOME: "/home/ada" },
      { NYZHI_HOME: "/tmp/nyzhi-home", NYZHI_CACHE_DIR: "/tmp/shared-cache" },
    ]) {
      expect(cacheDirectory(environment)).toBe(resolveDirs(environment).cache);
    }
  });
});
