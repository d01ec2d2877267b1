import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { upsertAccount } from "../accounts/account-list.js";
import { CorruptAuthFileError } from "../errors/auth-errors.js";
import { createFileCredentialStore } from "./file-credential-store.js";
import { openCredentialStore } from "./open-credential-store.js";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const esbuildBin = join(repoRoot, "node_modules/.bin/esbuild");
let home: string;
let path: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "nyzhi-auth-file-"));
  path = join(home, "data", "auth.json");
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("file credential store", () => {
  it("is auth.json in the NYZHI_HOME data dir when asked for the file store", async () => {
    const opened = await openCredentialStore({ env: { NYZHI_HOME: home }, prefer: "file" });
    expect(opened.kind).toBe("file");
    expect(opened.store.location).toBe(path);
  });

  it("writes mode 0600 and leaves no temp files", async () => {
    const store = createFileCredentialStore(path);
    await store.update("openai", (accounts) =>
      upsertAccount(accounts, "default", { type: "api-key", key: "sk-one" }),
    );
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(home, "data"))).toEqual(["auth.json"]);
    expect(await store.listAccounts("openai")).toEqual([
      { label: "default", secret: { type: "api-key", key: "sk-one" }, active: true },
    ]);
    expect(await store.listProviders()).toEqual(["openai"]);
  });

  it("tightens a 0644 file to 0600 on the next write", async () => {
    const store = createFileCredentialStore(path);
    await store.update("openai", (accounts) => upsertAccount(accounts, "a", { type: "api-key", key: "k1" }));
    await writeFile(path, await readFile(path), { mode: 0o644 });
    await store.update("openai", (accounts) => upsertAccount(accounts, "b", { type: "api-key", key: "k2" }));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("keeps every change under concurrent writes, and readers always see whole files", async () => {
    const writers = [createFileCredentialStore(path), createFileCredentialStore(path)];
    let reading = true;
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        const text = await readFile(path, "utf8").catch(() => "");
        if (text) JSON.parse(text);
        reads += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          writers[index % 2]!.update("openai", (accounts) =>
            upsertAccount(accounts, `account-${index}`, { type: "api-key", key: `key-${index}` }),
          ),
        ),
      );
    } finally {
      reading = false;
      await reader;
    }
    expect(reads).toBeGreaterThan(0);
    const labels = (await writers[0]!.listAccounts("openai")).map((account) => account.label).sort();
    expect(labels).toEqual(Array.from({ length: 20 }, (_, index) => `account-${index}`).sort());
    expect(await readdir(join(home, "data"))).toEqual(["auth.json"]);
  });

  it("reports a corrupt file by name, without its content, and never overwrites it", async () => {
    const store = createFileCredentialStore(path);
    await mkdir(dirname(path), { recursive: true });
    const corrupt = '{"openai": [{"token": {"access_token": "sk-secret-in-file"';
    await writeFile(path, corrupt, { mode: 0o600 });
    const before = await readFile(path);
    const readError = await store.listAccounts("openai").catch((error: unknown) => error);
    expect(readError).toBeInstanceOf(CorruptAuthFileError);
    expect(readError).toMatchObject({ code: "auth_file_corrupt", path });
    expect((readError as Error).message).toContain(path);
    expect((readError as Error).message).toContain("Move it aside");
    expect((readError as Error).message).not.toContain("sk-secret-in-file");
    expect(JSON.stringify(readError)).not.toContain("sk-secret-in-file");
    const writeError = await store
      .update("openai", (accounts) => upsertAccount(accounts, "x", { type: "api-key", key: "new" }))
      .catch((error: unknown) => error);
    expect(writeError).toBeInstanceOf(CorruptAuthFileError);
    expect(await readFile(path)).toEqual(before);
  });

  it("treats a well-formed JSON file of the wrong shape as corrupt", async () => {
    const store = createFileCredentialStore(path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(
      path,
      JSON.stringify({ version: 1, providers: { openai: [{ label: "x", secret: { type: "bearer" } }] } }),
    );
    await expect(store.listAccounts("openai")).rejects.toThrow(/providers\.openai\[0\]\.secret\.type/);
  });

  it("reads the Rust auth.json format: a key without refresh token stays an API key", async () => {
    const store = createFileCredentialStore(path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(
      path,
      JSON.stringify({
        gemini: { access_token: "AIza-legacy", refresh_token: null, expires_at: null, provider: "gemini" },
        anthropic: [
          {
            label: null,
            token: {
              access_token: "at",
              refresh_token: "rt",
              expires_at: 1_800_000_000,
              provider: "anthropic",
            },
            active: true,
            rate_limited_until: null,
          },
        ],
      }),
    );
    expect(await store.listAccounts("gemini")).toEqual([
      { label: "default", secret: { type: "api-key", key: "AIza-legacy" }, active: true },
    ]);
    expect(await store.listAccounts("anthropic")).toEqual([
      {
        label: "default",
        secret: { type: "oauth", accessToken: "at", refreshToken: "rt", expiresAt: 1_800_000_000_000 },
        active: true,
      },
    ]);
  });

  it("reads an empty or missing file as an empty store", async () => {
    const store = createFileCredentialStore(path);
    expect(await store.listProviders()).toEqual([]);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, "");
    expect(await store.listAccounts("openai")).toEqual([]);
  });
});

describe("file credential store across processes", () => {
  it("waits for another process's lock and removes the lock afterwards", async () => {
    const store = createFileCredentialStore(path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(`${path}.lock`, "12345");
    let done = false;
    const write = store
      .update("openai", (accounts) => upsertAccount(accounts, "a", { type: "api-key", key: "k" }))
      .then(() => {
        done = true;
      });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toBe(false);
    await rm(`${path}.lock`);
    await write;
    expect(await readdir(dirname(path))).toEqual(["auth.json"]);
  });

  it("breaks a stale lock left by a crashed process", async () => {
    const store = createFileCredentialStore(path, { staleMs: 50 });
    await mkdir(dirname(path), { recursive: true });
    await writeFile(`${path}.lock`, "12345");
    await new Promise((resolve) => setTimeout(resolve, 80));
    await store.update("openai", (accounts) => upsertAccount(accounts, "a", { type: "api-key", key: "k" }));
    expect(await store.listProviders()).toEqual(["openai"]);
  });

  it.skipIf(!existsSync(esbuildBin))(
    `keeps every change when separate processes write at once${existsSync(esbuildBin) ? "" : " (skipped: esbuild not installed)"}`,
    async () => {
      // Each child runs the real store, bundled from source, and appends 5 accounts.
      const bundle = join(home, "store.mjs");
      execFileSync(esbuildBin, [
        fileURLToPath(new URL("./file-credential-store.ts", import.meta.url)),
        "--bundle",
        "--platform=node",
        "--format=esm",
        `--alias:@nyzhi/config=${join(repoRoot, "packages/config/src/index.ts")}`,
        `--outfile=${bundle}`,
        "--log-level=warning",
      ]);
      const child = (index: number) =>
        new Promise<void>((resolve, reject) => {
          const code = `
            const { createFileCredentialStore } = await import(${JSON.stringify(bundle)});
            const store = createFileCredentialStore(${JSON.stringify(path)});
            for (let n = 0; n < 5; n++) {
              await store.update("openai", (accounts) => [
                ...accounts,
                { label: "p${index}-" + n, secret: { type: "api-key", key: "k" }, active: false },
              ]);
            }`;
          execFile(process.execPath, ["--input-type=module", "-e", code], (error) =>
            error ? reject(error) : resolve(),
          );
        });
      await Promise.all([0, 1, 2, 3].map(child));
      const labels = (await createFileCredentialStore(path).listAccounts("openai")).map(
        (account) => account.label,
      );
      expect(labels).toHaveLength(20);
      expect(await readdir(dirname(path))).toEqual(["auth.json"]);
    },
  );
});
