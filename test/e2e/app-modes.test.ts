import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { describe, expect, it } from "vitest";
import {
  closeAfterEach,
  LEAD_SYSTEM as LEAD,
  leadRequests,
  openApp as openAppIn,
  quitApp,
  reasoningEffort,
} from "./helpers/app-session.js";
import { anthropicEnv, openaiEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";
import { hasTmux, type TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * Plan mode and thinking levels through the built `nyz` against the mock (issue 34, Modes):
 * Shift+Tab into plan mode (banner, footer), a prompt that would write offers no mutating tool
 * and a forced write is refused; Shift+Tab out offers the plan and one key executes it; the
 * thinking level of `/think budget N`, `/thinking` and `deep:` reaches the request; `nyz exec --plan`.
 */
const PLAN_SYSTEM = "PLAN MODE (READ-ONLY)";
const MUTATING = ["write", "edit", "bash"];

let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;

closeAfterEach(
  () => [terminal, mock],
  () => {
    terminal = undefined;
    mock = undefined;
  },
);

function openApp(env: Record<string, string>, cwd: string, args: string[] = []): Promise<TmuxTerminal> {
  return openAppIn(env, cwd, args, {
    onStart: (term) => {
      terminal = term;
    },
  });
}

const quit = quitApp;

describe.skipIf(!hasTmux())("plan mode and thinking levels in the app", { timeout: 180_000 }, () => {
  it("Shift+Tab plans read-only, refuses a forced write, then offers the plan and executes it", async () => {
    mock = await startScenario({
      rules: [
        {
          name: "forced-write",
          match: { system: PLAN_SYSTEM, lastUser: "add a greeting file", lastIsToolResult: false },
          response: { toolCalls: [{ name: "write", arguments: { path: "hello.txt", content: "hi\n" } }] },
        },
        {
          name: "plan",
          match: { system: PLAN_SYSTEM, lastIsToolResult: true },
          response: { text: "PLAN-STEP-1 create hello.txt with a greeting" },
        },
        { name: "execute", match: { lastUser: "execute the plan" }, response: { text: "Executed it." } },
      ],
    });
    const workspace = await tempProject("nyzhi-e2e-plan-");
    const env = anthropicEnv(mock, await tempHome());
    const term = await openApp(env, workspace);

    // normal → auto-accept edits → plan.
    await term.keys("BTab");
    await term.waitForText("Mode: auto-accept edits");
    await term.keys("BTab");
    const planned = await term.waitForText("Plan Mode — read-only analysis");
    expect(planned).toMatch(/trust \w+ · plan/);

    await term.typeLine("add a greeting file");
    await term.waitForText("PLAN-STEP-1");
    const planRequests = leadRequests(mock).filter((request) => request.system?.includes(PLAN_SYSTEM));
    expect(planRequests.length).toBeGreaterThanOrEqual(2);
    for (const request of planRequests) {
      expect(request.toolsOffered).toContain("read");
      for (const name of MUTATING) expect(request.toolsOffered).not.toContain(name);
    }
    const refused = planRequests.at(-1)?.messages.flatMap((message) => message.toolResults ?? []);
    expect(refused?.[0]?.content).toContain("blocked in plan mode");
    expect(existsSync(join(workspace, "hello.txt"))).toBe(false);
    // The plan is kept for the session (written when the turn ends).
    await term.waitFor(() => existsSync(join(workspace, ".nyzhi", "plans")));

    // Out of plan mode: the offer shows; one key executes the plan, with the plan attached.
    await term.keys("BTab");
    await term.waitForText("Execute the plan?");
    await term.type("y");
    await term.waitForText("Executed it.");
    const executed = leadRequests(mock).at(-1)!;
    expect(executed.system).not.toContain(PLAN_SYSTEM);
    expect(executed.toolsOffered).toContain("write");
    const lastUser = executed.messages.filter((message) => message.role === "user").at(-1)?.text ?? "";
    expect(lastUser).toContain("execute the plan");
    expect(lastUser).toContain("PLAN-STEP-1 create hello.txt");

    // The cycle goes on from normal: auto-accept edits (trust autoedit), then plan again.
    await term.waitFor(
      (screen) => screen.includes("Executed it.") && !screen.includes("esc interrupt · enter queue"),
      20_000,
      "screen",
    );
    await term.keys("BTab");
    await term.waitFor((screen) => (screen.match(/Mode: auto-accept edits/g) ?? []).length >= 2);
    await term.waitFor((screen) => /trust autoedit · auto-accept edits/.test(screen), 20_000, "screen");
    await quit(term);
  });

  it("/think budget N, /thinking and deep: reach the Anthropic request; the plan: prefix plans one prompt", async () => {
    mock = await startScenario({
      rules: [{ match: { system: LEAD }, response: { text: "Answered." } }],
    });
    const workspace = await tempProject("nyzhi-e2e-think-");
    const env = anthropicEnv(mock, await tempHome());
    const term = await openApp(env, workspace, ["--model", "anthropic/claude-haiku-4-5-20251022"]);

    await term.typeLine("/thinking");
    await term.waitForText("this model has no thinking levels");
    await term.typeLine("/think budget 8000");
    await term.waitForText("thinking on (8000 tokens)");
    await term.typeLine("first question");
    await term.waitFor(() => leadRequests(mock!).length >= 1);
    await term.typeLine("deep: second question");
    await term.waitFor(() => leadRequests(mock!).length >= 2);
    await term.typeLine("plan: third question");
    await term.waitFor(() => leadRequests(mock!).length >= 3);
    await term.waitFor((screen) => (screen.match(/Answered\./g) ?? []).length >= 3);
    await term.typeLine("/think off");
    await term.waitForText("Thinking: off");
    await term.typeLine("fourth question");
    await term.waitFor(() => leadRequests(mock!).length >= 4);

    const [first, deep, plan, off] = leadRequests(mock).map(
      (request) => request.body as Record<string, unknown>,
    );
    expect(first?.thinking).toEqual({ type: "enabled", budget_tokens: 8000 });
    expect(deep?.thinking).toEqual({ type: "enabled", budget_tokens: 16384 });
    // The prefix changes only its own prompt: the session's budget is back, and plan mode is over.
    expect(plan?.thinking).toEqual({ type: "enabled", budget_tokens: 8000 });
    expect(off?.thinking).toBeUndefined();
    const requests = leadRequests(mock);
    expect(requests[1]?.messages.at(-1)?.text).toBe("second question");
    expect(requests[2]?.system).toContain(PLAN_SYSTEM);
    expect(requests[2]?.toolsOffered).not.toContain("write");
    expect(requests[3]?.system).not.toContain(PLAN_SYSTEM);
    await quit(term);
  });

  it("/thinking picks a level of an OpenAI model and deep: raises it; both reach the OpenAI request", async () => {
    mock = await startScenario({
      rules: [{ match: { system: LEAD }, response: { text: "Answered." } }],
    });
    const workspace = await tempProject("nyzhi-e2e-think-openai-");
    const env = openaiEnv(mock, await tempHome());
    const term = await openApp(env, workspace, ["--model", "openai/gpt-5.2"]);
    await term.typeLine("/thinking low");
    await term.waitForText("Thinking: low");
    await term.waitFor((screen) => screen.includes("thinking low"), 20_000, "screen");
    await term.typeLine("first question");
    await term.waitFor(() => leadRequests(mock!).length >= 1);
    await term.typeLine("deep: second question");
    await term.waitFor(() => leadRequests(mock!).length >= 2);
    const [first, deep] = leadRequests(mock).map((request) => request.body);
    expect(reasoningEffort(first)).toBe("low");
    expect(reasoningEffort(deep)).toBe("high");
    await quit(term);
  });
});

describe("nyz exec --plan", { timeout: 60_000 }, () => {
  it("offers only read-only tools, refuses a forced write and saves the plan", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: PLAN_SYSTEM, lastIsToolResult: false },
          response: { toolCalls: [{ name: "write", arguments: { path: "out.txt", content: "x" } }] },
        },
        { match: { system: PLAN_SYSTEM, lastIsToolResult: true }, response: { text: "PLAN: write out.txt" } },
      ],
      fallback: { text: "not in plan mode" },
    });
    const cwd = await tempProject("nyzhi-e2e-exec-plan-");
    const result = await runNyz(["exec", "--plan", "--full-auto", "write out.txt"], {
      cwd,
      env: anthropicEnv(mock, await tempHome()),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("PLAN: write out.txt");
    expect(existsSync(join(cwd, "out.txt"))).toBe(false);
    const lead = leadRequests(mock);
    for (const request of lead) for (const name of MUTATING) expect(request.toolsOffered).not.toContain(name);
    expect(lead.at(-1)?.messages.flatMap((message) => message.toolResults ?? [])[0]?.content).toContain(
      "blocked in plan mode",
    );
    const [planFile] = await readdir(join(cwd, ".nyzhi", "plans"));
    expect(await readFile(join(cwd, ".nyzhi", "plans", planFile!), "utf8")).toContain("PLAN: write out.txt");
  });
});
