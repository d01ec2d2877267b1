import { getLogger, markStartup, writeFileAtomic } from "@nyzhi/config";
import {
  type AgentEvent,
  describeBudget,
  type OpenedSession,
  openSession,
  parseAutopilotCommand,
  type TurnResult,
} from "@nyzhi/core";
import { indexProcessCommand } from "../commands/index-process-command-line.js";
import { loadCliConfig } from "../commands/load-cli-config.js";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import { headlessTurnInput, shellLineOf, shellPromptTurn } from "./headless-input.js";
import {
  type HeadlessFlags,
  parseMaxBudgetUsd,
  parseMaxSteps,
  parseSandboxFlag,
  parseTeamWaitMs,
  parseTrustFlag,
  UsageError,
} from "./headless-options.js";
import { holdSplitSecrets } from "./hold-split-secrets.js";
import { createJsonEventWriter, jsonLine } from "./json-event-writer.js";
import { turnCompleteLine } from "./json-run-lines.js";
import { textForEvent } from "./text-event-writer.js";

export interface HeadlessRun {
  /** The prompt argument; a `/command` here is expanded. */
  prompt: string;
  /** Piped stdin, put before the prompt as it is (never read as a `/command`). */
  piped?: string;
  mode: "run" | "exec";
  /** Interrupts the turn (SIGINT). */
  signal: AbortSignal;
}

/** `-o -`: the final answer goes to stdout instead of a file. */
export const OUTPUT_TO_STDOUT = "-";

/**
 * Whether text mode prints the final answer on stdout when the turn ends: always with `-q` or
 * `-o -`; otherwise unless stdout and stderr are both terminals, where the text streamed to stderr
 * has already shown it (printing it again would show it twice). So `nyz run "…" > out.md` and
 * `x=$(nyz exec "…")` get the answer, and only it, while progress stays on stderr.
 */
export function printsAnswerOnStdout(flags: HeadlessFlags, io: Pick<CommandIo, "isTerminal">): boolean {
  if (flags.json) return false;
  if (flags.quiet || flags.output === OUTPUT_TO_STDOUT) return true;
  const terminal = io.isTerminal;
  return !(terminal?.stdout && terminal.stderr);
}

/** A warning about the run's set-up (config, workspace, worktrees): said on stderr in every mode. */
function isSetupWarning(event: AgentEvent): boolean {
  return event.type === "notice" && event.level === "warning" && event.source !== "mcp";
}

/** Writes events as JSONL on stdout or as text on stderr. */
function eventSink(io: CommandIo, flags: HeadlessFlags): (event: AgentEvent) => void {
  if (flags.json) {
    const linesFor = createJsonEventWriter();
    return (event) => {
      for (const line of linesFor(event)) io.stdout(jsonLine(line));
      if (isSetupWarning(event)) io.stderr(textForEvent(event) ?? "");
    };
  }
  if (flags.quiet) {
    return (event) => {
      if (event.type === "error") io.stderr(`Error: ${event.message}\n`);
      else if (event.type === "notice" && event.level === "warning") io.stderr(textForEvent(event) ?? "");
    };
  }
  return (event) => {
    const text = textForEvent(event);
    if (text) io.stderr(text);
  };
}

/** Records a turn's error in the log file too (known credentials redacted, like every line). */
function logTurnError(io: CommandIo, event: Extract<AgentEvent, { type: "error" }>): void {
  try {
    getLogger(io.env).error({ agent: event.agent.agentId, message: event.message }, "turn failed");
  } catch {
    // The log file could not be opened (read-only data dir): the user has the message already.
  }
}

/**
 * `nyz run` and `nyz exec`: one headless turn, a thin host over core's `openSession`. Approvals
 * follow the trust mode; one that nobody can give is denied and reported. Text mode streams
 * progress to stderr and prints the answer on stdout (see `printsAnswerOnStdout`); `--json` writes
 * only JSONL to stdout, ending with `turn_complete`. Returns the exit code: 0 done, 1 failed,
 * 130 interrupted.
 */
export async function runHeadless(
  io: CommandIo,
  globals: GlobalFlags,
  flags: HeadlessFlags,
  run: HeadlessRun,
): Promise<number> {
  const startedAt = Date.now();
  // A key streamed in pieces is held back until whole, so the writers can redact it.
  const sink = holdSplitSecrets(eventSink(io, flags));
  const emit = (event: AgentEvent) => {
    if (event.type === "error") logTurnError(io, event);
    sink.emit(event);
  };
  const trust = flags.fullAuto || flags.full_auto ? "full" : parseTrustFlag(globals.trust);
  const sandbox = flags.fullAuto || flags.full_auto ? "workspace-write" : parseSandboxFlag(flags.sandbox);
  const maxSteps = parseMaxSteps(flags.maxSteps);
  const maxBudgetUsd = parseMaxBudgetUsd(flags.maxBudgetUsd);
  const teamWaitMs = parseTeamWaitMs(flags.teamWaitMs);
  if (flags.continue && flags.session) throw new UsageError("Cannot use both --continue and --session");
  if (flags.json && flags.output === OUTPUT_TO_STDOUT) {
    throw new UsageError(
      `-o - writes the answer to stdout, where ${run.mode === "run" ? "--format json" : "--json"} writes its events; pass -o FILE, or read the text of the last line (turn_complete)`,
    );
  }
  const subagentModels = parseSubagentModels(flags.subagentModel);

  const loaded = await loadCliConfig(io, { ...globals, ...(trust ? { trust } : {}) });
  markStartup("config loaded");
  // The session is held until its thread is saved: a second run on it fails at once instead of racing.
  const session = await openSession({
    cwd: io.cwd,
    env: io.env,
    config: loaded,
    model: globals.model,
    sandbox,
    maxSteps,
    ...(flags.continue
      ? { resume: { latest: true } }
      : flags.session
        ? { resume: { query: flags.session } }
        : {}),
    ephemeral: flags.ephemeral === true,
    teamName: flags.teamName,
    subagentModels,
    ...(maxBudgetUsd !== undefined ? { budget: { usd: maxBudgetUsd } } : {}),
    // An index, when one exists and is opened, runs in its own process, as the app's does.
    headless: true,
    indexProcess: indexProcessCommand(),
    ...(flags.autoContext ? { autoContext: true } : {}),
    ...(flags.plan ? { planMode: true } : {}),
    // Every event of the session (its opening, warnings, hook results, background agents) comes
    // here or from the turn below; nobody answers approvals (they follow the trust mode).
    host: { onEvent: emit },
  });
  markStartup("session open");
  let result: TurnResult;
  try {
    // `/autopilot …` runs its phases (each a turn) and ends with the validation report.
    const autopilot = parseAutopilotCommand(run.prompt);
    // `!command` runs the line under the bash tool's rules, without a model turn.
    const shellLine = run.piped ? undefined : shellLineOf(run.prompt);
    const turn = autopilot
      ? session.autopilot.run(autopilot, { signal: run.signal })
      : shellLine !== undefined
        ? shellPromptTurn(session, shellLine, run.signal)
        : await promptTurn(session, run, { io, flags }, teamWaitMs);
    for (;;) {
      const next = await turn.next();
      if (next.done) {
        result = next.value;
        break;
      }
      if (next.value.type.startsWith("step-") || next.value.type === "turn-end") markStartup(next.value.type);
      emit(next.value);
    }
  } finally {
    // Whatever failed (a bad /command, a missing -i image), the agents and MCP servers are
    // stopped, the session saved and released, so the process can exit.
    sink.flush();
    markStartup("turn done");
    await session.close();
  }
  markStartup("session closed");
  const { record } = session;
  // Core's figures for the run (`sinceOpen`) and the session; the host sums nothing.
  const complete = session.turnComplete(result);
  const spent = complete.sinceOpen;
  const answer = complete.text;
  if (flags.output && flags.output !== OUTPUT_TO_STDOUT) {
    // Only a finished answer, and atomically: a failed or interrupted turn never replaces the file.
    if (result.reason === "completed") {
      await writeFileAtomic(flags.output, result.text);
      io.stderr(`Response written to ${flags.output}\n`);
    } else io.stderr(`${flags.output} not written: the turn did not complete (${result.reason})\n`);
  }
  const durationMs = Date.now() - startedAt;
  const { providerId, modelId } = complete;
  const sessionBudget = complete.budget;
  const worktreesLeft = session.waitingWorktrees();
  if (flags.json) {
    io.stdout(
      jsonLine(
        turnCompleteLine(complete, {
          durationMs,
          ...(worktreesLeft.length > 0 ? { worktrees: worktreesLeft } : {}),
        }),
      ),
    );
  } else if (!flags.quiet) {
    const embedding = spent.embeddingTokens > 0 ? ` · ${spent.embeddingTokens} embedding tokens` : "";
    io.stderr(
      `\n\n— ${result.steps} step${result.steps === 1 ? "" : "s"} · ${spent.usage.inputTokens} in / ${spent.usage.outputTokens} out tokens${embedding} · $${spent.costUsd.toFixed(4)} · ${(durationMs / 1000).toFixed(1)}s · ${providerId}/${modelId} · session ${record.meta.id.slice(0, 8)}${flags.ephemeral ? " (not saved)" : ""}\n`,
    );
  }
  if (answer && printsAnswerOnStdout(flags, io)) io.stdout(`${answer}\n`);
  // Agents' changes nobody merged or discarded stay on their branches for the person.
  for (const left of worktreesLeft) {
    io.stderr(
      `Agent ${left.nickname}'s changes wait on branch ${left.branch} (worktree ${left.path}): ${left.diffStat}. See: git diff ${left.base.slice(0, 12)} ${left.branch}; merge: git merge ${left.branch} (or ask nyz to merge_agent_changes ${left.agentId}); drop: git worktree remove --force ${left.path} && git branch -D ${left.branch}\n`,
    );
  }
  if (result.reason === "budget") {
    const spent = sessionBudget ? describeBudget(sessionBudget) : "the session's budget";
    const saved = flags.ephemeral
      ? "The session was not saved (--ephemeral)."
      : `Session ${record.meta.id.slice(0, 8)} saved; continue with \`nyz ${run.mode} --continue "…"\` and a larger budget.`;
    io.stderr(`Budget exhausted: ${spent} (agent.budget / --max-budget-usd). ${saved}\n`);
    return ExitCode.failure;
  }
  if (result.reason === "aborted") {
    io.stderr(`${interruptedMessage(run.mode, record.meta.id, { saved: flags.ephemeral !== true })}\n`);
    return ExitCode.interrupted;
  }
  return result.reason === "completed" ? ExitCode.success : ExitCode.failure;
}

/** The prompt's turn: a `/command` expanded, piped input before it, `@paths` and `-i` images attached. */
async function promptTurn(
  session: OpenedSession,
  run: Pick<HeadlessRun, "prompt" | "piped" | "signal">,
  options: { io: CommandIo; flags: HeadlessFlags },
  teamWaitMs: number,
): Promise<AsyncGenerator<AgentEvent, TurnResult>> {
  const expanded = await session.expandCommand(run.prompt);
  const prompt = run.piped ? (expanded.trim() ? `${run.piped}\n\n${expanded}` : run.piped) : expanded;
  const input = await headlessTurnInput(session, prompt, options);
  // In a team (--team-name, or one the lead created or spawned into): follow it until it is quiet.
  return session.runTurn(input, {
    signal: run.signal,
    followTeam: { waitMs: teamWaitMs, timeoutHint: "raise --team-wait-ms" },
  });
}

/** What Ctrl-C leaves behind, and how to go on from it. */
export function interruptedMessage(
  mode: "run" | "exec",
  sessionId: string,
  options: { saved: boolean },
): string {
  if (!options.saved) return "Interrupted. The session was not saved (--ephemeral).";
  const id = sessionId.slice(0, 8);
  return `Interrupted. Session ${id} saved; continue with \`nyz ${mode} --continue "…"\` (this project's latest session) or \`nyz ${mode} -s ${id} "…"\`.`;
}

/** `--subagent-model role=model` (repeatable) → overrides by role. */
function parseSubagentModels(values: readonly string[] | undefined): Record<string, string> {
  const overrides: Record<string, string> = {};
  for (const value of values ?? []) {
    const equals = value.indexOf("=");
    if (equals <= 0 || equals === value.length - 1) {
      throw new UsageError(
        `--subagent-model expects role=model (e.g. explorer=anthropic/claude-haiku-4-5), got '${value}'`,
      );
    }
    overrides[value.slice(0, equals).trim()] = value.slice(equals + 1).trim();
  }
  return overrides;
}
