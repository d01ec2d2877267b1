import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { loadRules, NyzhiError, resolveDirs } from "@nyzhi/config";
import {
  type AgentEvent,
  type AgentTag,
  createAgentRuntime,
  createModelResolver,
  type SessionRecord,
  SessionStore,
  type TurnResult,
} from "@nyzhi/core";
import { loadCliConfig } from "../commands/load-cli-config.js";
import { ExitCode } from "../io/exit-codes.js";
import type { CommandIo } from "../io/output.js";
import type { GlobalFlags } from "../main.js";
import {
  type HeadlessFlags,
  parseMaxSteps,
  parseSandboxFlag,
  parseTrustFlag,
  UsageError,
} from "./headless-options.js";
import { jsonForEvent, jsonLine } from "./json-event-writer.js";
import { buildUserContent } from "./read-input.js";
import { textForEvent } from "./text-event-writer.js";

const LEAD: AgentTag = { agentId: "lead", depth: 0 };

export interface HeadlessRun {
  prompt: string;
  mode: "run" | "exec";
  /** Interrupts the turn (SIGINT). */
  signal: AbortSignal;
}

/** Writes events as JSONL on stdout or as text on stderr. */
function eventSink(io: CommandIo, flags: HeadlessFlags): (event: AgentEvent) => void {
  if (flags.json) {
    return (event) => {
      const line = jsonForEvent(event);
      if (line) io.stdout(jsonLine(line));
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

/**
 * `nyz run` and `nyz exec`: one headless turn. Approvals follow the trust mode; one that nobody
 * can give is denied and reported. Returns the exit code: 0 done, 1 failed, 130 interrupted.
 */
export async function runHeadless(
  io: CommandIo,
  globals: GlobalFlags,
  flags: HeadlessFlags,
  run: HeadlessRun,
): Promise<number> {
  const startedAt = Date.now();
  const emit = eventSink(io, flags);
  const trust = flags.fullAuto || flags.full_auto ? "full" : parseTrustFlag(globals.trust);
  const sandbox = flags.fullAuto || flags.full_auto ? "workspace-write" : parseSandboxFlag(flags.sandbox);
  const maxSteps = parseMaxSteps(flags.maxSteps);
  if (flags.continue && flags.session) throw new UsageError("Cannot use both --continue and --session");

  const loaded = await loadCliConfig(io, { ...globals, ...(trust ? { trust } : {}) });
  const { config, projectRoot } = loaded;
  if (maxSteps !== undefined) config.agent.max_steps = maxSteps;
  const dirs = resolveDirs(io.env);
  const store = new SessionStore(dirs.sessions);

  const resolveModel = createModelResolver({
    config,
    env: io.env,
    onRetry: (retry) =>
      emit({
        type: "retry",
        agent: LEAD,
        attempt: retry.attempt,
        maxAttempts: retry.maxRetries,
        waitMs: retry.waitMs,
        reason: retry.error.message,
      }),
  });
  const resolved = await resolveModel(globals.model);

  const record = await openSession(store, flags, {
    provider: resolved.providerId,
    model: resolved.modelId,
    projectRoot,
  });
  if (flags.json)
    io.stdout(
      jsonLine({
        type: "session",
        session_id: record.meta.id,
        provider: resolved.providerId,
        model: resolved.modelId,
      }),
    );

  const rules = await loadRules(projectRoot);
  for (const warning of rules.warnings) io.stderr(`${warning}\n`);
  const runtime = createAgentRuntime({
    config,
    model: resolved.model,
    cwd: projectRoot,
    env: io.env,
    ...(sandbox ? { sandbox } : {}),
    ...(rules.text ? { rules: rules.text } : {}),
    thread: record.messages,
  });
  runtime.context.costOf = resolved.costOf;

  const input = await buildUserContent(run.prompt, flags.image ?? []);
  const turn = runtime.runTurn(input, { signal: run.signal });
  let result: TurnResult;
  for (;;) {
    const next = await turn.next();
    if (next.done) {
      result = next.value;
      break;
    }
    emit(next.value);
  }

  record.meta.provider = resolved.providerId;
  record.meta.model = resolved.modelId;
  record.meta.usage = result.usage;
  record.meta.costUsd = (record.meta.costUsd ?? 0) + result.costUsd;
  if (!flags.ephemeral && record.messages.length > 0) await store.save(record);

  if (flags.output) {
    await writeFile(flags.output, result.text);
    io.stderr(`Response written to ${flags.output}\n`);
  }
  const durationMs = Date.now() - startedAt;
  if (flags.json) {
    io.stdout(
      jsonLine({
        type: "summary",
        session_id: record.meta.id,
        steps: result.steps,
        input_tokens: result.usage.inputTokens,
        output_tokens: result.usage.outputTokens,
        cost_usd: result.costUsd,
        duration_ms: durationMs,
        reason: result.reason,
      }),
    );
  } else if (flags.quiet) {
    if (result.text.trim()) io.stdout(`${result.text.trim()}\n`);
  } else {
    io.stderr(
      `\n\n— ${result.steps} step${result.steps === 1 ? "" : "s"} · ${result.usage.inputTokens} in / ${result.usage.outputTokens} out tokens · $${result.costUsd.toFixed(4)} · ${(durationMs / 1000).toFixed(1)}s · session ${record.meta.id.slice(0, 8)}${flags.ephemeral ? " (not saved)" : ""}\n`,
    );
  }
  if (result.reason === "aborted") return ExitCode.interrupted;
  return result.reason === "completed" ? ExitCode.success : ExitCode.failure;
}

async function openSession(
  store: SessionStore,
  flags: HeadlessFlags,
  meta: { provider: string; model: string; projectRoot: string },
): Promise<SessionRecord> {
  if (flags.continue) {
    const latest = await store.latest();
    if (!latest) throw new NyzhiError("session_not_found", "No sessions to continue.");
    return store.load(latest.id);
  }
  if (flags.session) return store.load((await store.resolveOne(flags.session)).id);
  const now = new Date().toISOString();
  return {
    meta: { id: randomUUID(), title: "", createdAt: now, updatedAt: now, messageCount: 0, ...meta },
    messages: [],
  };
}
