import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { NYZ_BIN, tempHome, tempProject } from "./helpers/run-nyz.js";
import { hasTmux, SHELL_PROMPT, TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * Issue 19: the app's code index lives in a `nyz __index-process` child, so LanceDB is never
 * loaded into the app. The built `nyz` in tmux, against the mock LLM; processes read from /proc.
 */
const READY = "Ask anything";
const LEAD = "You are Nizzy";

let home: string;
let project: string;
let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;

function write(path: string, content: string): void {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), content);
}

/** Pids whose parent is `parent`, with their command lines (arguments joined by spaces). */
function childrenOf(parent: number): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== parent) continue;
      if (/^State:\s+Z/m.test(status)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
      found.push({ pid: Number(entry), command });
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}

/** Whether LanceDB's native addon is mapped into `pid`. */
function loadsLanceDb(pid: number): boolean {
  return /lancedb/i.test(readFileSync(`/proc/${pid}/maps`, "utf8"));
}

async function until<T>(find: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const found = find();
    if (found) return found;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function builtManifest(): string | undefined {
  const indexes = join(home, "data", "index");
  if (!existsSync(indexes)) return undefined;
  return readdirSync(indexes)
    .map((hash) => join(indexes, hash, "manifest.json"))
    .find((path) => existsSync(path));
}

beforeEach(async () => {
  home = await tempHome();
  project = await tempProject("nyzhi-app-index-process-");
  execFileSync("git", ["init", "-q"], { cwd: project });
  write(
    "src/billing/invoice.ts",
    "/** Adds up the lines of an invoice, with tax. */\nexport function computeInvoiceTotal(lines: number[], taxRate: number): number {\n  const net = lines.reduce((sum, line) => sum + line, 0);\n  return net * (1 + taxRate);\n}\n",
  );
  write(
    "src/util/strings.ts",
    "export function padLeft(text: string, width: number): string {\n  return text.padStart(width);\n}\n",
  );
  mkdirSync(join(home, "config"), { recursive: true });
  writeFileSync(join(home, "config", "config.toml"), '[index]\nembedding = "none"\n');
});
afterEach(async () => {
  await terminal?.close();
  terminal = undefined;
  await mock?.close();
  mock = undefined;
  await rm(home, { recursive: true, force: true });
  await rm(project, { recursive: true, force: true });
});

describe.skipIf(!hasTmux())("the app's code index in a child process", { timeout: 120_000 }, () => {
  it("builds and searches in a `nyz __index-process` child of the app, which never loads LanceDB", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastUser: "find the invoice code", lastIsToolResult: false },
          response: {
            toolCalls: [{ name: "semantic_search", arguments: { query: "invoice total with tax" } }],
          },
        },
        { match: { system: LEAD, lastIsToolResult: true }, response: { text: "Found the invoice code." } },
      ],
    });
    terminal = await TmuxTerminal.start({
      cwd: project,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: project,
        NYZHI_LOG: "silent",
        ...anthropicEnv(mock, home),
      },
    });
    await terminal.startNyz();
    await terminal.waitForText(READY);
    const shell = Number(
      (await terminal.tmux("display-message", "-p", "-t", terminal.target, "#{pane_pid}")).trim(),
    );
    const app = await until(() => childrenOf(shell).find((entry) => entry.command.includes(NYZ_BIN)));

    // Idle, the app starts no child and builds nothing (issue 27), past the 2 s a build waits.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(childrenOf(app.pid).filter((entry) => entry.command.includes("__index-process"))).toHaveLength(0);
    expect(builtManifest()).toBeUndefined();

    // index.auto: the first key of a prompt starts the first build in the background, in the child.
    await terminal.type("find the invoice code");
    await until(builtManifest);
    const child = await until(() =>
      childrenOf(app.pid).find(
        (entry) => entry.command === `${process.execPath} ${NYZ_BIN} __index-process --background`,
      ),
    );
    // Below the app's CPU priority (niceness, field 19 of /proc/<pid>/stat): the app's keys come first.
    const niceness = (pid: number) => {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    };
    expect(niceness(child.pid)).toBeGreaterThan(niceness(app.pid));

    await terminal.keys("Enter");
    await terminal.waitForText("Found the invoice code.");
    const answered = mock.requests.filter((request) => request.system?.includes(LEAD)).at(-1);
    const results = answered?.messages.flatMap((message) => message.toolResults ?? []) ?? [];
    // The index's own result format (a symbol), not the full-text fallback's.
    expect(results.at(-1)?.content).toMatch(
      /^1\. src\/billing\/invoice\.ts \(lines 1-5, symbol: computeInvoiceTotal, score: /,
    );
    expect(loadsLanceDb(child.pid)).toBe(true);
    expect(loadsLanceDb(app.pid)).toBe(false);
    expect(childrenOf(app.pid).filter((entry) => entry.command.includes("__index-process"))).toHaveLength(1);

    await terminal.typeLine("/exit");
    await terminal.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
    await until(
      () =>
        !existsSync(`/proc/${child.pid}/status`) ||
        /^State:\s+Z/m.test(readFileSync(`/proc/${child.pid}/status`, "utf8")),
      10_000,
    );
    // The child ran the index's own bundle (dist/index-process.cjs), not every command's; each
    // keeps its V8 code cache beside the other's.
    const caches = () =>
      existsSync(join(home, "cache", "v8")) ? readdirSync(join(home, "cache", "v8")) : [];
    await until(() => caches().some((name) => /-index-process-.*-index-process\.bin$/.test(name)), 10_000);
    await until(() => caches().some((name) => /-nyz-main-.*-commands\.bin$/.test(name)), 10_000);
  });
});
