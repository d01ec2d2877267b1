import { chmod, chown, lstat, mkdtemp, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { setConfigValue } from "../writer/set-config-value.js";
import { writeFileAtomic } from "./write-file-atomic.js";

describe("writeFileAtomic", () => {
  it("writes through a symlink to its target and keeps the link", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nyzhi-atomic-"));
    await writeFile(join(dir, "real.toml"), "a = 1\n");
    await symlink(join(dir, "real.toml"), join(dir, "link.toml"));
    await writeFileAtomic(join(dir, "link.toml"), "a = 2\n");
    expect((await lstat(join(dir, "link.toml"))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, "real.toml"), "utf8")).toBe("a = 2\n");
  });

  it("replaces a path it cannot stat (a looping symlink) as it did with the async calls", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nyzhi-atomic-"));
    const loop = join(dir, "a");
    await symlink("b", loop);
    await symlink("a", join(dir, "b"));
    await writeFileAtomic(loop, "hello");
    expect(await readFile(loop, "utf8")).toBe("hello");
  });

  it("keeps an existing file's mode unless one is given", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nyzhi-atomic-"));
    const file = join(dir, "private.toml");
    await writeFile(file, "a = 1\n");
    await chmod(file, 0o600);
    await writeFileAtomic(file, "a = 2\n");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("keeps an existing file's mode exactly, bits the umask would clear included", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nyzhi-atomic-"));
    const file = join(dir, "shared.toml");
    await writeFile(file, "a = 1\n");
    await chmod(file, 0o664);
    const umask = process.umask(0o022);
    try {
      await writeFileAtomic(file, "a = 2\n");
    } finally {
      process.umask(umask);
    }
    expect((await stat(file)).mode & 0o777).toBe(0o664);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "keeps the owner of the file it replaces when run as root",
    async () => {
      const dir = await mkdtemp(join(tmpdir(), "nyzhi-atomic-"));
      const file = join(dir, "config.toml");
      await writeFile(file, "a = 1\n");
      await chown(file, 4321, 4322);
      await writeFileAtomic(file, "a = 2\n");
      const { uid, gid } = await stat(file);
      expect({ uid, gid }).toEqual({ uid: 4321, gid: 4322 });
    },
  );

  it("makes a config file that now holds an API key readable by its owner only", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nyzhi-atomic-"));
    const file = join(dir, "config.toml");
    await setConfigValue(file, "provider.openai.api_key", "sk-test-0123456789", { layer: "global" });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe("secrets in config errors", () => {
  it("masks an API key on the offending line of a TOML syntax error and in a schema error", async () => {
    const { loadConfig } = await import("../layers/load-config.js");
    const dir = await mkdtemp(join(tmpdir(), "nyzhi-secret-error-"));
    const home = join(dir, "home");
    const global = join(dir, "config.toml");
    await writeFile(global, '[provider.openai]\napi_key = "sk-live-SECRET-123\n');
    const syntax = await loadConfig({ cwd: dir, env: { NYZHI_HOME: home }, globalConfigFile: global }).catch(
      (error: Error) => error,
    );
    expect(String(syntax)).toContain("invalid TOML");
    expect(String(syntax)).not.toContain("SECRET");
    await writeFile(global, "[provider.openai]\napi_key = 12345678901\n");
    const schema = await loadConfig({ cwd: dir, env: { NYZHI_HOME: home }, globalConfigFile: global }).catch(
      (error: Error) => error,
    );
    expect(String(schema)).toContain("provider.openai.api_key");
    expect(String(schema)).not.toContain("12345678901");
  });
});
