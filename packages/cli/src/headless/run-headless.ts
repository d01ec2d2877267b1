import { randomUUID } from "node:crypto";
import { getLogger, NyzhiError, resolveDirs, writeFileAtomic } from "@nyzhi/config";
import {
  type AgentEvent,
  type AgentTag,
  createAgentRuntime,
  createModelResolver,
  expandCommand,
  followTeam,
  loadCustomCommands,
  loadWorkspace,
  type McpNotice,
  type McpSession,
  mcpPromptCommands,
  parseSlashInput,
  type SessionRecord,
  SessionStore,
  startMcpSession,
  type TurnResult,
} from "@nyzhi/core";
import { addUsage } from "@nyzhi/provider";
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
import { jsonLine, jsonLinesForEvent } from "./json-event-writer.js";
import { buildUserContent } from "./read-input.js";
import { textForEvent } from "./text-event-writer.js";

const LEAD: AgentTag = { agentId: "lead", depth: 0 };

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
  const teamWaitMs = parseTeamWaitMs(flags.teamWaitMs);
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

  // The session is held until its thread is saved: a second run on it fails at once instead of racing.
  const { record, release: releaseSession } = await openSession(store, flags, {
    provider: resolved.providerId,
    model: resolved.modelId,
    projectRoot,
  });
  try {
    if (flags.json)
      io.stdout(
        jsonLine({
          type: "session",
          session_id: record.meta.id,
          provider: resolved.providerId,
          model: resolved.modelId,
        }),
      );

    const workspace = await loadWorkspace({
      root: projectRoot,
      env: io.env,
      config,
      origins: loaded.origins,
    });
    for (const warning of workspace.warnings) io.stderr(`${warning}\n`);
    const mcp = await startMcpServers(io, flags, { config, projectRoot });
    let runtime: ReturnType<typeof createAgentRuntime> | undefined;
    let result: TurnResult;
    try {
      runtime = createAgentRuntime({
        mcp,
        config,
        model: resolved,
        resolveModel,
        cwd: projectRoot,
        env: io.env,
        sessionId: record.meta.id,
        ...(sandbox ? { sandbox } : {}),
        ...(workspace.rules ? { rules: workspace.rules } : {}),
        roles: workspace.roles,
        skills: workspace.skills,
        fragments: workspace.fragments,
        projectMemory: workspace.projectMemory,
        subagentModelOverrides: parseSubagentModels(flags.subagentModel),
        ...(flags.teamName ? { team: { name: flags.teamName } } : {}),
        thread: record.messages,
        host: {
          onBackgroundEvent: emit,
          onHookResult: (hook) => {
            if (flags.json)
              io.stdout(
                jsonLine({ type: "hook", event: hook.event, status: hook.status, summary: hook.summary }),
              );
            else if (!flags.quiet) io.stderr(`${hook.summary}\n`);
          },
        },
      });
      if (record.agents) runtime.manager?.restore(record.agents);
      await runtime.lifecycle.sessionStart({
        source: flags.continue || flags.session ? "resume" : "startup",
      });

      const expanded = await expandSlashCommand(run.prompt, projectRoot, config, io, mcp);
      const prompt = run.piped ? (expanded.trim() ? `${run.piped}\n\n${expanded}` : run.piped) : expanded;
      const input = await buildUserContent(prompt, flags.image ?? []);
      const turn = runtime.runTurn(input, { signal: run.signal });
      for (;;) {
        const next = await turn.next();
        if (next.done) {
          result = next.value;
          break;
        }
        emit(next.value);
      }
      // In a team (--team-name, or one the lead created or spawned into): follow it until it is quiet.
      result = await followTeam(runtime, result, {
        waitMs: teamWaitMs,
        signal: run.signal,
        emit,
        timeoutHint: "raise --team-wait-ms",
      });
    } finally {
      // Whatever failed after the servers started (a bad /command, a missing -i image), they are
      // stopped, so the process can exit.
      await runtime?.close();
      await mcp.close();
    }

    const children = runtime?.manager?.usageOf("lead");
    const teammates = runtime?.teams?.usage();
    let totalUsage = children ? addUsage(result.usage, children.usage) : result.usage;
    if (teammates) totalUsage = addUsage(totalUsage, teammates.usage);
    const totalCost = result.costUsd + (children?.costUsd ?? 0) + (teammates?.costUsd ?? 0);
    record.meta.provider = resolved.providerId;
    record.meta.model = resolved.modelId;
    record.meta.usage = record.meta.usage ? addUsage(record.meta.usage, totalUsage) : totalUsage;
    record.meta.costUsd = (record.meta.costUsd ?? 0) + totalCost;
    const agents = runtime?.manager?.snapshot();
    if (agents && Object.keys(agents).length > 0) record.agents = agents;
    if (!flags.ephemeral && record.messages.length > 0) await store.save(record);

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
          input_tokens: totalUsage.inputTokens,
          output_tokens: totalUsage.outputTokens,
          cost_usd: totalCost,
          duration_ms: durationMs,
          reason: result.reason,
        }),
      );
    } else if (flags.quiet) {
      if (result.text.trim()) io.stdout(`${result.text.trim()}\n`);
    } else {
      io.stderr(
        `\n\n— ${result.steps} step${result.steps === 1 ? "" : "s"} · ${totalUsage.inputTokens} in / ${totalUsage.outputTokens} out tokens · $${totalCost.toFixed(4)} · ${(durationMs / 1000).toFixed(1)}s · session ${record.meta.id.slice(0, 8)}${flags.ephemeral ? " (not saved)" : ""}\n`,
      );
    }
    if (result.reason === "aborted") return ExitCode.interrupted;
    return result.reason === "completed" ? ExitCode.success : ExitCode.failure;
  } finally {
    await releaseSession();
  }
}

async function openSession(
  store: SessionStore,
  flags: HeadlessFlags,
  meta: { provider: string; model: string; projectRoot: string },
): Promise<{ record: SessionRecord; release: () => Promise<void> }> {
  if (flags.continue || flags.session) {
    let id: string;
    if (flags.continue) {
      const latest = await store.latest({ projectRoot: meta.projectRoot });
      if (!latest) {
        throw new NyzhiError(
          "session_not_found",
          `No sessions to continue in ${meta.projectRoot}. \`nyz sessions\` lists all of them; --session <id> resumes any.`,
        );
      }
      id = latest.id;
    } else id = (await store.resolveOne(flags.session as string)).id;
    // Taken before the thread is read, so no other run's turn can land in between.
    const release = await store.lock(id);
    try {
      return { record: await store.load(id), release };
    } catch (error) {
      await release();
      throw error;
    }
  }
  const now = new Date().toISOString();
  const id = randomUUID();
  return {
    record: {
      meta: { id, title: "", createdAt: now, updatedAt: now, messageCount: 0, ...meta },
      messages: [],
    },
    release: await store.lock(id),
  };
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

/**
 * Starts the session's MCP servers (config and `.mcp.json`) in parallel; a server that fails, times
 * out or later crashes is reported — a `notice` line with `--json`, else a warning on stderr — and
 * the run goes on without it.
 */
async function startMcpServers(
  io: CommandIo,
  flags: HeadlessFlags,
  options: { config: Parameters<typeof startMcpSession>[0]["config"]; projectRoot: string },
): Promise<McpSession> {
  const report = (message: string, notice?: McpNotice) => {
    if (flags.json) {
      const where = notice ? { server: notice.server, kind: notice.kind } : {};
      io.stdout(jsonLine({ type: "notice", source: "mcp", message, ...where }));
    } else io.stderr(`warning: ${message}\n`);
  };
  const session = await startMcpSession({
    config: options.config,
    projectRoot: options.projectRoot,
    env: io.env,
    logger: getLogger(io.env),
    onNotice: (notice) => {
      if (notice.kind !== "tools-changed") report(notice.message, notice);
    },
  });
  for (const warning of session.warnings) report(warning);
  return session;
}

/** `/name args` runs the custom command `name` (from .nyzhi/commands, .claude/commands or config). */
async function expandSlashCommand(
  prompt: string,
  root: string,
  config: Parameters<typeof loadCustomCommands>[1],
  io: CommandIo,
  mcp: McpSession,
): Promise<string> {
  const slash = parseSlashInput(prompt.trim());
  if (!slash) return prompt;
  const { commands, warnings } = await loadCustomCommands(root, config);
  for (const warning of warnings) io.stderr(`${warning}\n`);
  const command = commands.find((candidate) => candidate.name === slash.name);
  if (command) return expandCommand(command, slash.args);
  // MCP prompts are commands too: `/mcp__<server>__<prompt> args`.
  const prompts = slash.name.startsWith("mcp__") ? await mcpPromptCommands(mcp.manager) : [];
  const mcpPrompt = prompts.find((candidate) => candidate.name === slash.name);
  if (mcpPrompt) return mcpPrompt.expand(slash.args);
  const known = [
    ...commands.map((candidate) => `/${candidate.name}`),
    ...prompts.map((candidate) => `/${candidate.name}`),
  ];
  throw new UsageError(`Unknown command /${slash.name}. Custom commands here: ${known.join(", ") || "none"}`);
}
