import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MockLlm } from "@nyzhi/mock-llm";
import { beforeEach, describe, expect, it } from "vitest";
import { closeAfterEach, freshProjectAndHome, openApp, quitApp } from "./helpers/app-session.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { hasTmux, type TmuxTerminal } from "./helpers/tmux-terminal.js";

// The interactive app is a CommonJS bundle run through V8's code cache, as the commands are
// (decision 019): its cache is written once, while the app runs (not on its way out), used by the
// next launch, left alone when unchanged, and rewritten when V8 refuses it.

const dist = fileURLToPath(new URL("../../packages/cli/dist/", import.meta.url));
let terminal: TmuxTerminal | undefined;
let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  ({ workspace, home } = await freshProjectAndHome("nyzhi-e2e-app-cache-"));
});
closeAfterEach(
  () => [terminal, mock],
  () => {
    terminal = undefined;
    mock = undefined;
  },
);

const appCaches = async () =>
  (await readdir(join(home, "cache", "v8")).catch(() => [] as string[])).filter((name) =>
    /-app\.bin$/.test(name),
  );

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Opens the app, waits until `written` says the cache is there, and quits. */
async function openAndQuit(written: () => Promise<boolean>): Promise<void> {
  mock ??= await startScenario({ rules: [{ response: { text: "ok" } }] });
  terminal = await openApp(anthropicEnv(mock, home), workspace);
  await until(async () => ((await written()) ? true : undefined), "the app's code cache written");
  await quitApp(terminal);
  await terminal.close();
  terminal = undefined;
}

describe.skipIf(!hasTmux())("the app's code cache", () => {
  it("is a CommonJS bundle with no top-level await left", async () => {
    const app = await readFile(join(dist, "app.cjs"), "utf8");
    expect(app.startsWith('"use strict";')).toBe(true);
    // yoga-layout's wasm is inlined once (read out of its loader at build time, not copied).
    expect(app.match(/AGFzbQ/g)).toHaveLength(1);
    expect((await readFile(join(dist, "app.cjs.sha256"), "utf8")).trim()).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is written while the first app runs, reused and left alone after, rewritten when corrupt", async () => {
    await openAndQuit(async () => (await appCaches()).length > 0);
    const [name] = await appCaches();
    expect(name).toBeDefined();
    const hash = (await readFile(join(dist, "app.cjs.sha256"), "utf8")).trim().slice(0, 16);
    expect(name).toContain(hash);
    const file = join(home, "cache", "v8", name as string);
    const written = await stat(file);

    // A second launch uses it and writes nothing (the app stays open past the write delay).
    mock ??= await startScenario({ rules: [{ response: { text: "ok" } }] });
    terminal = await openApp(anthropicEnv(mock, home), workspace);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await quitApp(terminal);
    await terminal.close();
    terminal = undefined;
    expect(await appCaches()).toEqual([name]);
    expect((await stat(file)).mtimeMs).toBe(written.mtimeMs);

    // A corrupt cache is refused by V8: the app still opens, and the cache is written anew.
    await writeFile(file, "not V8 data");
    await openAndQuit(async () => (await stat(file)).size > 100);
    expect(await appCaches()).toEqual([name]);
  });
});
