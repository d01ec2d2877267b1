import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultConfig, type NyzhiConfig, NyzhiError } from "@nyzhi/config";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createIndex } from "../indexer/create-index.js";
import type { IndexProgress } from "../indexer/index-pipeline.js";
import { type IndexProcess, openIndexProcess } from "./index-process-client.js";

/**
 * The index process through real child processes: the child is `serveIndexProcess` of the built
 * package (`__fixtures__/index-process/serve-index.mjs` imports `dist/`: run `pnpm build` first).
 */
const fixtures = fileURLToPath(new URL("../__fixtures__/index-process/", import.meta.url));
const SERVE = join(fixtures, "serve-index.mjs");
const DIST = fileURLToPath(new URL("../../dist/index.js", import.meta.url));

let home: string;
let root: string;
const opened: IndexProcess[] = [];
const hosts: ChildProcess[] = [];

function config(): NyzhiConfig {
  const value = defaultConfig();
  value.index.embedding = "none";
  return value;
}

function open(options: { maxRestarts?: number } = {}): IndexProcess {
  const index = openIndexProcess({
    command: process.execPath,
    args: [SERVE],
    root,
    env: { PATH: process.env.PATH, NYZHI_HOME: home, NYZHI_LOG: "silent" },
    config: config(),
    ...options,
  });
  opened.push(index);
  return index;
}

function write(path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

/** Whether `pid` is a live process (a zombie waiting to be reaped counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(() => {
  const built = existsSync(DIST) && readFileSync(DIST, "utf8").includes("serveIndexProcess");
  if (!built) throw new Error(`${DIST} is missing or predates serveIndexProcess: run \`pnpm build\``);
});
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "nyzhi-index-process-home-"));
  root = mkdtempSync(join(tmpdir(), "nyzhi-index-process-root-"));
  write(
    "src/billing/invoice.ts",
    "/** Adds up an invoice. */\nexport function computeInvoiceTotal(lines: number[]): number {\n  return lines.reduce((sum, line) => sum + line, 0);\n}\n",
  );
  write(
    "src/util/strings.ts",
    "export function padLeft(text: string, width: number): string {\n  return text.padStart(width);\n}\n",
  );
  write("README.md", "# Billing\n\nInvoices and their totals.\n");
});
afterEach(async () => {
  for (const host of hosts.splice(0)) host.kill("SIGKILL");
  await Promise.all(opened.splice(0).map((index) => index.close()));
  rmSync(home, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

describe("openIndexProcess and serveIndexProcess", { timeout: 60_000 }, () => {
  it("update (with progress), search, status, countFiles and embeddingTokens answer as createIndex does", async () => {
    const index = open();
    const progress: IndexProgress[] = [];
    const result = await index.update({ onProgress: (step) => progress.push(step) });
    expect(result).toMatchObject({ files: 3, indexed: 3, removed: 0, aborted: false });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)?.filesTotal).toBe(3);
    expect(index.pid).toBeTypeOf("number");
    expect(index.pid).not.toBe(process.pid);

    const local = createIndex({ root, env: { NYZHI_HOME: home }, config: config(), embedder: null });
    try {
      const found = await index.search("computeInvoiceTotal", { k: 5 });
      expect(found[0]).toMatchObject({ path: "src/billing/invoice.ts", symbol: "computeInvoiceTotal" });
      expect(found).toEqual(await local.search("computeInvoiceTotal", { k: 5 }));
      expect(await index.status()).toEqual({ ...(await local.status()), reason: expect.any(String) });
    } finally {
      await local.close();
    }
    expect(await index.countFiles()).toBe(3);
    expect(await index.countFiles({ exclude: ["src/util/**"] })).toBe(2);
    expect(await index.embeddingTokens()).toBe(0);
    expect(await index.update({ paths: ["src/util/strings.ts"] })).toMatchObject({ files: 3, indexed: 0 });
  });

  it.skipIf(!existsSync("/proc/self/environ"))(
    "starts the child with glibc's malloc at 2 arenas (LanceDB's threads otherwise keep freed memory), unless the environment names its own",
    async () => {
      const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
      const index = open();
      await index.status().catch(() => undefined);
      expect(environOf(index.pid as number)).toContain("MALLOC_ARENA_MAX=2");
      const own = openIndexProcess({
        command: process.execPath,
        args: [SERVE],
        root,
        env: { PATH: process.env.PATH, NYZHI_HOME: home, NYZHI_LOG: "silent", MALLOC_ARENA_MAX: "4" },
        config: config(),
      });
      opened.push(own);
      await own.status().catch(() => undefined);
      expect(environOf(own.pid as number)).toContain("MALLOC_ARENA_MAX=4");
    },
  );

  it("aborts a call in the child when the host's signal aborts", async () => {
    const index = open();
    await index.status();
    const controller = new AbortController();
    const update = index.update({ signal: controller.signal });
    controller.abort();
    const stopped = await update.then(
      (result) => result.aborted,
      (error: Error) => error.name === "AbortError",
    );
    expect(stopped).toBe(true);
  });

  it("rethrows the child's errors with their code (index_not_built before the first update)", async () => {
    const index = open();
    const error = await index.search("anything").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NyzhiError);
    expect(error).toMatchObject({ code: "index_not_built", name: "IndexNotBuiltError" });
    expect((error as Error).message).toContain(root);
  });

  it("rejects the waiting calls of a child that dies, and the next call starts a new child", async () => {
    const index = open();
    await index.update();
    const first = index.pid;
    const waiting = index.search("hang");
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.kill(first as number, "SIGKILL");
    await expect(waiting).rejects.toMatchObject({ code: "index_process_exited" });
    await expect(waiting).rejects.toThrow(
      /was killed by SIGKILL; 1 waiting call\(s\) failed\. The next call starts a new one/,
    );
    expect(index.pid).toBeUndefined();
    const found = await index.search("padLeft");
    expect(found[0]?.path).toBe("src/util/strings.ts");
    expect(index.pid).toBeTypeOf("number");
    expect(index.pid).not.toBe(first);
  });

  it("gives up after maxRestarts unexpected ends", async () => {
    const index = open({ maxRestarts: 0 });
    await index.status();
    const waiting = index.search("hang");
    process.kill(index.pid as number, "SIGKILL");
    await expect(waiting).rejects.toMatchObject({ code: "index_process_exited" });
    await expect(index.status()).rejects.toMatchObject({ code: "index_process_failed" });
  });

  it("ends the child on close(); later calls are refused", async () => {
    const index = open();
    await index.status();
    const pid = index.pid as number;
    await index.close();
    await until(() => !alive(pid));
    await expect(index.status()).rejects.toMatchObject({ code: "index_process_closed" });
  });

  it("ends the child when its host dies (the IPC channel closes)", async () => {
    const host = spawn(process.execPath, [join(fixtures, "open-and-wait.mjs"), root, home], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { PATH: process.env.PATH, NYZHI_LOG: "silent" },
    });
    hosts.push(host);
    let output = "";
    host.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    await until(() => /^\d+\n/.test(output), 30_000);
    const child = Number(output.trim());
    expect(alive(child)).toBe(true);
    host.kill("SIGKILL");
    await until(() => !alive(child));
  });
});
