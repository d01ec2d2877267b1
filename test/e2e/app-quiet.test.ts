import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appTerminalEnv } from "./helpers/app-session.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { NYZ_BIN, tempHome, tempProject } from "./helpers/run-nyz.js";
import { hasTmux, TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * Issue 27, "quiet and light": an app with nothing running writes nothing to the terminal and
 * starts no code index child; a typed key rewrites only what changed. The built `nyz` in tmux,
 * its output counted through `tmux pipe-pane`.
 */
const READY = "Ask anything";
/** The footer names the model once the session is open (`… · trust off` before). */
const OPEN = /[\w.-]+ · trust off/;
/** Bytes a key's echo may write: the few cells that changed and the moves to reach them. */
const ECHO_BYTES = 150;

let home: string;
let project: string;
let output: string;
let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const written = () => statSync(output).size;

/** `nyz __index-process` children of the app in the pane (its shell's child). */
function indexChildren(shellPid: number): number {
  const childrenOf = (parent: number) =>
    readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .flatMap((entry) => {
        try {
          const status = readFileSync(`/proc/${entry}/status`, "utf8");
          if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== parent || /^State:\s+Z/m.test(status))
            return [];
          return [{ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, "utf8") }];
        } catch {
          return [];
        }
      });
  const app = childrenOf(shellPid).find((entry) => entry.command.includes(NYZ_BIN));
  if (!app) throw new Error("the app is not running");
  return childrenOf(app.pid).filter((entry) => entry.command.includes("__index-process")).length;
}

beforeEach(async () => {
  home = await tempHome();
  project = await tempProject("nyzhi-app-quiet-");
  execFileSync("git", ["init", "-q"], { cwd: project });
  mkdirSync(join(project, "src"), { recursive: true });
  for (let index = 0; index < 20; index++)
    writeFileSync(join(project, "src", `module-${index}.ts`), `export const value${index} = ${index};\n`);
  mkdirSync(join(home, "config"), { recursive: true });
  writeFileSync(join(home, "config", "config.toml"), '[index]\nembedding = "none"\n');
  output = join(home, "pane-output");
  writeFileSync(output, "");
  mock = await startScenario({ rules: [{ response: { text: "ok" } }] });
  terminal = await TmuxTerminal.start({
    cwd: project,
    columns: 100,
    rows: 30,
    env: appTerminalEnv(project, anthropicEnv(mock, home)),
  });
});
afterEach(async () => {
  await terminal?.close();
  terminal = undefined;
  await mock?.close();
  mock = undefined;
  // The app may still be saving as tmux ends it: retry a removal that raced a write.
  await rm(home, { recursive: true, force: true, maxRetries: 5 });
  await rm(project, { recursive: true, force: true, maxRetries: 5 });
});

describe.skipIf(!hasTmux())("a quiet app", { timeout: 120_000 }, () => {
  it("writes nothing and starts no index child while it sits idle", async () => {
    const term = terminal as TmuxTerminal;
    await term.startNyz();
    await term.waitForText(READY);
    await term.waitFor((screen) => OPEN.test(screen));
    // The footer is whole once it shows how full the context is (measured just after opening).
    await term.waitFor((screen) => /· ctx \d+%/.test(screen));
    await term.tmux("pipe-pane", "-o", "-t", term.target, `cat >> '${output}'`);
    const shell = Number((await term.tmux("display-message", "-p", "-t", term.target, "#{pane_pid}")).trim());
    // Longer than the 2 s after which a session used to build its missing index in the background.
    await sleep(6000);
    expect(written(), JSON.stringify(readFileSync(output, "utf8"))).toBe(0);
    expect(indexChildren(shell)).toBe(0);
  });

  it("echoes a typed key in fewer than 150 bytes", async () => {
    const term = terminal as TmuxTerminal;
    await term.startNyz();
    await term.waitForText(READY);
    await term.waitFor((screen) => OPEN.test(screen));
    // The first key changes the box's colour and the footer's hints; the next ones only the line.
    await term.type("h");
    await term.waitFor((screen) => screen.includes("› h"));
    await sleep(500);
    await term.tmux("pipe-pane", "-o", "-t", term.target, `cat >> '${output}'`);
    const sizes: number[] = [];
    let typed = "h";
    for (const key of "ello") {
      const before = written();
      typed += key;
      await term.type(key);
      await term.waitFor((screen) => screen.includes(`› ${typed}`));
      await sleep(300);
      sizes.push(written() - before);
    }
    for (const size of sizes) expect(size).toBeLessThan(ECHO_BYTES);
    expect(sizes.some((size) => size > 0)).toBe(true);
  });
});
