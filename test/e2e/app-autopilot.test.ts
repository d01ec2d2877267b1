import { execFileSync } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import { appTerminalEnv } from "./helpers/app-session.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { tempHome, tempProject } from "./helpers/run-nyz.js";
import { hasTmux, SHELL_PROMPT, TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * Issue 29's `/autopilot` in the app, in a real terminal against the mock: the phases run as lead
 * turns, Esc interrupts one (its state stays saved), a restart with `nyz -c` says where it stopped
 * and `/autopilot resume` goes on to the end; `/autopilot` shows it, `clear` deletes it.
 */
const OPEN = /[\w.-]+ · trust off/;
const LEAD = "You are Nizzy";
const phase = (n: number, name: string) => `[AUTOPILOT — phase ${n}/5: ${name}]`;

let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;
const cleanup: string[] = [];

afterEach(async () => {
  await terminal?.close();
  terminal = undefined;
  await mock?.close();
  mock = undefined;
  for (const path of cleanup.splice(0)) await rm(path, { recursive: true, force: true, maxRetries: 5 });
});

const leadPrompts = (m: MockLlm) =>
  m.requests
    .filter((request) => request.system?.includes(LEAD))
    .map((request) => request.messages.filter((message) => message.role === "user").at(-1)?.text ?? "");

/** A git project, a fresh home, and a terminal in the project talking to the mock. */
async function openTerminal(prefix: string) {
  const project = await tempProject(prefix);
  execFileSync("git", ["init", "-q"], { cwd: project });
  const home = await tempHome();
  cleanup.push(project, home);
  const term = await TmuxTerminal.start({
    cwd: project,
    columns: 120,
    rows: 40,
    env: appTerminalEnv(project, anthropicEnv(mock as MockLlm, home)),
  });
  terminal = term;
  return { term, statePath: join(project, ".nyzhi", "state", "autopilot.json") };
}

async function exitApp(term: TmuxTerminal): Promise<void> {
  await term.typeLine("/exit");
  await term.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
}

describe.skipIf(!hasTmux())("/autopilot in the app", { timeout: 180_000 }, () => {
  it("runs the phases as turns; Esc stops one; nyz -c says where it stopped; resume goes on to the end", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastUser: phase(1, "expansion") },
          response: { text: "REQ-ONE and REQ-TWO" },
        },
        // The first planning request hangs until Esc; the second answers.
        {
          times: 1,
          match: { system: LEAD, lastUser: phase(2, "planning") },
          response: { fault: { type: "hang" } },
        },
        { match: { system: LEAD, lastUser: phase(2, "planning") }, response: { text: "PLAN-STEPS" } },
        { match: { system: LEAD, lastUser: phase(3, "execution") }, response: { text: "EXEC-LOG" } },
        { match: { system: LEAD, lastUser: phase(4, "qa") }, response: { text: "QA-PASSED" } },
        { match: { system: LEAD, lastUser: phase(5, "validation") }, response: { text: "VALIDATED-ALL" } },
      ],
    });
    const { term, statePath } = await openTerminal("nyzhi-e2e-autopilot-");

    await term.startNyz();
    await term.waitFor((screen) => OPEN.test(screen));
    await term.typeLine("/autopilot a tiny greeter");
    await term.waitFor(
      (screen) => screen.includes("REQ-ONE and REQ-TWO") && screen.includes("Autopilot · planning phase"),
    );
    // Planning hangs: Esc interrupts the phase; the state stays at planning with the requirements kept.
    await term.waitFor(() =>
      leadPrompts(mock as MockLlm).some((prompt) => prompt.includes(phase(2, "planning"))),
    );
    await term.keys("Escape");
    await term.waitForText("Autopilot stopped in the planning phase (aborted)");
    const stopped = JSON.parse(await readFile(statePath, "utf8"));
    expect(stopped).toMatchObject({
      idea: "a tiny greeter",
      phase: "planning",
      requirements: "REQ-ONE and REQ-TWO",
    });
    await exitApp(term);

    // A restart: `nyz -c` says where the run stopped; resume goes on from planning to the end.
    await term.startNyz(["-c"]);
    await term.waitFor((screen) => OPEN.test(screen) && screen.includes("stopped before its planning phase"));
    await term.typeLine("/autopilot resume");
    await term.waitFor(
      (screen) => screen.includes("VALIDATED-ALL") && screen.includes("Autopilot complete"),
      60_000,
    );
    const prompts = leadPrompts(mock);
    expect(prompts.filter((prompt) => prompt.includes(phase(1, "expansion")))).toHaveLength(1);
    const planning = prompts.filter((prompt) => prompt.includes(phase(2, "planning")));
    expect(planning).toHaveLength(2);
    expect(planning[1]).toContain("REQ-ONE and REQ-TWO");
    expect(prompts.find((prompt) => prompt.includes(phase(3, "execution")))).toContain("PLAN-STEPS");
    expect(prompts.find((prompt) => prompt.includes(phase(5, "validation")))).toContain("QA-PASSED");
    expect(JSON.parse(await readFile(statePath, "utf8"))).toMatchObject({
      phase: "complete",
      plan: "PLAN-STEPS",
      execution_log: ["EXEC-LOG"],
      qa_results: ["QA-PASSED"],
      validation_report: "VALIDATED-ALL",
    });

    await term.typeLine("/autopilot");
    await term.waitForText("Phase: complete");
    await term.typeLine("/autopilot clear");
    await term.waitForText("Autopilot state deleted.");
    await expect(readFile(statePath, "utf8")).rejects.toThrow();
    await exitApp(term);
  });
  it("/stop cancels a running autopilot: the phase stops, the state ends cancelled, no next phase starts", async () => {
    mock = await startScenario({
      rules: [
        // Expansion hangs until /stop; any later phase would answer (and must not be asked).
        { match: { system: LEAD, lastUser: phase(1, "expansion") }, response: { fault: { type: "hang" } } },
        { match: { system: LEAD }, response: { text: "NEXT-PHASE-RAN" } },
      ],
    });
    const { term, statePath } = await openTerminal("nyzhi-e2e-autopilot-stop-");

    await term.startNyz();
    await term.waitFor((screen) => OPEN.test(screen));
    await term.typeLine("/autopilot a tiny greeter");
    await term.waitFor(() =>
      leadPrompts(mock as MockLlm).some((prompt) => prompt.includes(phase(1, "expansion"))),
    );
    // A prompt typed meanwhile waits for the turn; /stop drops it too.
    await term.typeLine("and also this");
    await term.waitForText("· 1 queued");
    await term.typeLine("/stop");
    const stopped = await term.waitForText("Dropped 1 queued message(s).");
    expect(stopped).toContain("Autopilot cancelled: no further phase runs.");
    expect(stopped).not.toContain("/autopilot resume goes on from there");
    expect(JSON.parse(await readFile(statePath, "utf8"))).toMatchObject({
      idea: "a tiny greeter",
      phase: "cancelled",
    });
    // Back to the input: the next prompt is an ordinary turn, not the planning phase.
    await term.typeLine("/autopilot");
    await term.waitForText("Cancelled. /autopilot clear deletes this state.");
    const prompts = leadPrompts(mock);
    expect(prompts).toHaveLength(1);
    expect(prompts.some((prompt) => prompt.includes(phase(2, "planning")))).toBe(false);
    expect(JSON.parse(await readFile(statePath, "utf8")).phase).toBe("cancelled");
    await exitApp(term);
  });
});
