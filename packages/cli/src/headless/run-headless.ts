import { getLogger, writeFileAtomic } from "@nyzhi/config";
import { type AgentEvent, type McpNotice, openSession, type TurnResult } from "@nyzhi/core";
import { subtractUsage } from "@nyzhi/provider";
import { loadCliConfig } from "../commands/load-cli-config.js";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import {
  type HeadlessFlags,
  parseMaxSteps,
  parseSandboxFlag,
  parseTeamWaitMs,
  parseTrustFlag,
  UsageError,
} from "./headless-options.js";
import { holdSplitSecrets } from "./hold-split-secrets.js";
import { jsonLine, jsonLinesForEvent } from "./json-event-writer.js";
import { buildUserContent } from "./read-input.js";
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

/** Writes events as JSONL on stdout or as text on stderr. */
function eventSink(io: CommandIo, flags: HeadlessFlags): (event: AgentEvent) => void {
  if (flags.json) {
    const started = new Set<string>();
    return (event) => {
      for (const line of jsonLinesForEvent(event, started)) io.stdout(jsonLine(line));
    };
  }
  if (flags.quiet) {
    return (event) => {
      if (event.type === "error") io.stderr(`Error: ${event.message}\n`);
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
 * follow the trust mode; one that nobody can give is denied and reported. Returns the exit code:
 * 0 done, 1 failed, 130 interrupted.
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
  const teamWaitMs = parseTeamWaitMs(flags.teamWaitMs);
  if (flags.continue && flags.session) throw new UsageError("Cannot use both --continue and --session");
  const subagentModels = parseSubagentModels(flags.subagentModel);

  const loaded = await loadCliConfig(io, { ...globals, ...(trust ? { trust } : {}) });
  const reportMcp = (message: string, notice?: McpNotice) => {
    if (flags.json) {
      const where = notice ? { server: notice.server, kind: notice.kind } : {};
      io.stdout(jsonLine({ type: "notice", source: "mcp", message, ...where }));
    } else io.stderr(`warning: ${message}\n`);
  };
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
    host: {
      onBackgroundEvent: emit,
      onRetry: emit,
      onWarning: (message) => io.stderr(`${message}\n`),
      onMcpNotice: reportMcp,
      onOpened: (opened) => {
        if (flags.json)
          io.stdout(
            jsonLine({
              type: "session",
              session_id: opened.id,
              provider: opened.providerId,
              model: opened.modelId,
            }),
          );
      },
      onHookResult: (hook) => {
        if (flags.json)
          io.stdout(
            jsonLine({ type: "hook", event: hook.event, status: hook.status, summary: hook.summary }),
          );
        else if (!flags.quiet) io.stderr(`${hook.summary}\n`);
      },
    },
  });
  const before = session.usage();
  let result: TurnResult;
  try {
    const expanded = await session.expandCommand(run.prompt);
    const prompt = run.piped ? (expanded.trim() ? `${run.piped}\n\n${expanded}` : run.piped) : expanded;
    const input = await buildUserContent(prompt, flags.image ?? []);
    // In a team (--team-name, or one the lead created or spawned into): follow it until it is quiet.
    const turn = session.runTurn(input, {
      signal: run.signal,
      followTeam: { waitMs: teamWaitMs, timeoutHint: "raise --team-wait-ms" },
    });
    for (;;) {
      const next = await turn.next();
      if (next.done) {
        result = next.value;
        break;
      }
      emit(next.value);
    }
  } finally {
    // Whatever failed (a bad /command, a missing -i image), the agents and MCP servers are
    // stopped, the session saved and released, so the process can exit.
    sink.flush();
    await session.close();
  }
  const after = session.usage();
  const runUsage = subtractUsage(after.usage, before.usage);
  const runCost = after.costUsd - before.costUsd;
  const { record } = session;

  if (flags.output) {
    // Only a finished answer, and atomically: a failed or interrupted turn never replaces the file.
    if (result.reason === "completed") {
      await writeFileAtomic(flags.output, result.text);
      io.stderr(`Response written to ${flags.output}\n`);
    } else io.stderr(`${flags.output} not written: the turn did not complete (${result.reason})\n`);
  }
  const durationMs = Date.now() - startedAt;
  if (flags.json) {
    io.stdout(
      jsonLine({
        type: "summary",
        session_id: record.meta.id,
        steps: result.steps,
        input_tokens: runUsage.inputTokens,
        output_tokens: runUsage.outputTokens,
        cost_usd: runCost,
        duration_ms: durationMs,
        reason: result.reason,
      }),
    );
  } else if (flags.quiet) {
    // A failed step's text is a fragment (a stream that broke off), never the answer.
    if (result.reason !== "error" && result.text.trim()) io.stdout(`${result.text.trim()}\n`);
  } else {
    const { providerId, modelId } = session.model;
    io.stderr(
      `\n\n— ${result.steps} step${result.steps === 1 ? "" : "s"} · ${runUsage.inputTokens} in / ${runUsage.outputTokens} out tokens · $${runCost.toFixed(4)} · ${(durationMs / 1000).toFixed(1)}s · ${providerId}/${modelId} · session ${record.meta.id.slice(0, 8)}${flags.ephemeral ? " (not saved)" : ""}\n`,
    );
  }
  if (result.reason === "aborted") return ExitCode.interrupted;
  return result.reason === "completed" ? ExitCode.success : ExitCode.failure;
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
