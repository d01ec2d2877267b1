import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/**
 * Issue 29's autopilot, headless: `nyz exec "/autopilot <idea>"` takes the idea through five
 * phases, each a lead turn whose answer feeds the next prompt, saves the state after each phase,
 * stops at `agent.max_steps` where it can go on later, and prints the validation report.
 */
const LEAD = "You are Nizzy";
const phase = (n: number, name: string) => `[AUTOPILOT — phase ${n}/5: ${name}]`;
const ANSWERS = {
  expansion: "REQ: a greet() function that returns hello",
  planning: "PLAN: add greet.js, then a test",
  execution: "LOG: wrote greet.js",
  qa: "QA: 1 test passed",
  validation: "VALIDATION: every requirement met",
};
const phaseRules = [
  { match: { system: LEAD, lastUser: phase(1, "expansion") }, response: { text: ANSWERS.expansion } },
  { match: { system: LEAD, lastUser: phase(2, "planning") }, response: { text: ANSWERS.planning } },
  { match: { system: LEAD, lastUser: phase(3, "execution") }, response: { text: ANSWERS.execution } },
  { match: { system: LEAD, lastUser: phase(4, "qa") }, response: { text: ANSWERS.qa } },
  { match: { system: LEAD, lastUser: phase(5, "validation") }, response: { text: ANSWERS.validation } },
];

let mock: MockLlm | undefined;
let project: string;
let home: string;

beforeEach(async () => {
  project = await tempProject("nyzhi-autopilot-");
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(project, { recursive: true, force: true, maxRetries: 5 });
  await rm(home, { recursive: true, force: true, maxRetries: 5 });
});

const statePath = () => join(project, ".nyzhi", "state", "autopilot.json");
const leadPrompts = (m: MockLlm) =>
  m.requests
    .filter((request) => request.system?.includes(LEAD))
    .map((request) => request.messages.filter((message) => message.role === "user").at(-1)?.text ?? "");

describe("nyz exec /autopilot", { timeout: 120_000 }, () => {
  it("runs the five phases, each fed the last one's answer, saves the state, and prints the validation report", async () => {
    mock = await startScenario({ rules: phaseRules });
    const result = await runNyz(["exec", "/autopilot a greeting helper"], {
      cwd: project,
      env: anthropicEnv(mock, home),
      timeoutMs: 60_000,
    });
    expect(result.stderr).toContain("[autopilot: expansion phase]");
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(ANSWERS.validation);

    const prompts = leadPrompts(mock);
    expect(prompts).toHaveLength(5);
    expect(prompts[0]).toContain(phase(1, "expansion"));
    expect(prompts[0]).toContain("a greeting helper");
    expect(prompts[1]).toContain(ANSWERS.expansion);
    expect(prompts[2]).toContain(ANSWERS.planning);
    expect(prompts[3]).toContain(ANSWERS.execution);
    expect(prompts[4]).toContain(ANSWERS.qa);
    expect(prompts[4]).toContain(ANSWERS.expansion);

    const state = JSON.parse(await readFile(statePath(), "utf8"));
    expect(state).toMatchObject({
      idea: "a greeting helper",
      phase: "complete",
      requirements: ANSWERS.expansion,
      plan: ANSWERS.planning,
      execution_log: [ANSWERS.execution],
      qa_results: [ANSWERS.qa],
      validation_report: ANSWERS.validation,
    });

    // `/autopilot` shows where it stands; `clear` deletes the state.
    const status = await runNyz(["exec", "/autopilot"], { cwd: project, env: anthropicEnv(mock, home) });
    expect(status.stdout).toContain("Phase: complete");
    expect(status.stdout).toContain(`validation    ${ANSWERS.validation}`);
    const cleared = await runNyz(["exec", "/autopilot clear"], {
      cwd: project,
      env: anthropicEnv(mock, home),
    });
    expect(cleared.stdout).toContain("Autopilot state deleted.");
    await expect(readFile(statePath(), "utf8")).rejects.toThrow();
    expect(leadPrompts(mock)).toHaveLength(5);
  });

  it("stops at agent.max_steps in the phase that ran out, and `nyz exec -c` goes on from there", async () => {
    // Execution calls a tool every step: with max_steps = 1 its turn ends at max-steps.
    mock = await startScenario({
      rules: [
        {
          name: "busy-execution",
          times: 1,
          match: { system: LEAD, lastUser: phase(3, "execution") },
          response: { toolCalls: [{ name: "list_dir", arguments: { path: "." } }] },
        },
        ...phaseRules,
      ],
    });
    await mkdir(join(home, "config"), { recursive: true });
    await writeFile(join(home, "config", "config.toml"), "[agent]\nmax_steps = 1\n");
    const env = anthropicEnv(mock, home);
    const first = await runNyz(["exec", "/autopilot a greeting helper"], {
      cwd: project,
      env,
      timeoutMs: 60_000,
    });
    expect(first.code).not.toBe(0);
    expect(first.stderr).toContain("[autopilot stopped in the execution phase (max-steps)");
    const stopped = JSON.parse(await readFile(statePath(), "utf8"));
    expect(stopped).toMatchObject({
      phase: "execution",
      requirements: ANSWERS.expansion,
      plan: ANSWERS.planning,
    });
    expect(stopped.execution_log).toEqual([]);

    const second = await runNyz(["exec", "-c", "/autopilot resume"], {
      cwd: project,
      env,
      timeoutMs: 60_000,
    });
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toBe(ANSWERS.validation);
    const prompts = leadPrompts(mock);
    // expansion, planning, execution (stopped), then execution again, qa, validation.
    expect(prompts.filter((prompt) => prompt.includes(phase(1, "expansion")))).toHaveLength(1);
    expect(prompts.filter((prompt) => prompt.includes(phase(3, "execution")))).toHaveLength(2);
    expect(JSON.parse(await readFile(statePath(), "utf8")).phase).toBe("complete");
  });

  it("cancels a saved run, and names the file and the fix when the state is damaged", async () => {
    mock = await startScenario({ rules: phaseRules });
    const env = anthropicEnv(mock, home);
    await mkdir(join(project, ".nyzhi", "state"), { recursive: true });
    await writeFile(
      statePath(),
      JSON.stringify({
        idea: "x",
        phase: "qa",
        requirements: "r",
        plan: "p",
        execution_log: ["e"],
        qa_results: [],
      }),
    );
    const cancelled = await runNyz(["exec", "/autopilot cancel"], { cwd: project, env });
    expect(cancelled.stdout).toContain("Autopilot cancelled at the qa phase.");
    expect(JSON.parse(await readFile(statePath(), "utf8"))).toMatchObject({ phase: "cancelled", plan: "p" });
    const resumed = await runNyz(["exec", "/autopilot resume"], { cwd: project, env });
    expect(resumed.stdout).toContain("Nothing to resume.");

    await writeFile(statePath(), "{ not json");
    const damaged = await runNyz(["exec", "/autopilot"], { cwd: project, env });
    expect(damaged.code).not.toBe(0);
    expect(damaged.stderr).toContain(`${statePath()} is not a valid autopilot state`);
    expect(damaged.stderr).toContain("/autopilot clear");
    expect(leadPrompts(mock)).toHaveLength(0);
  });
});
