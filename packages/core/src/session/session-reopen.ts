import { type Environment, errorMessage, type LoadedConfig, reloadConfig } from "@nyzhi/config";
import type { AgentEvent } from "../events/agent-events.js";
import type { OpenedSession } from "./session-handle.js";
import type { SessionResume } from "./session-record.js";

/** What of `OpenSessionOptions` reopening sets (named here: open-session.ts imports this file). */
interface ReopenOptions {
  env: Environment;
  config?: LoadedConfig | undefined;
  model?: string | undefined;
  planMode?: boolean | undefined;
  subagentModels?: Record<string, string> | undefined;
  resume?: SessionResume | undefined;
  host?: { onEvent?: ((event: AgentEvent) => void) | undefined } | undefined;
}

/**
 * Reopens `session` in place with its config loaded again (`/trust on`: the project's power keys
 * now apply): it is closed (saved), then opened on the same conversation, as `nyz -c` would, with
 * the model, plan mode and subagent models it had. A session with no messages yet (never saved)
 * opens fresh. If the reloaded config cannot open (a bad value in a file that now counts), it is
 * reopened with the config it had, and a warning says why.
 */
export async function reopenSession<Options extends ReopenOptions>(
  session: OpenedSession,
  options: Options,
  open: (options: Options) => Promise<OpenedSession>,
): Promise<OpenedSession> {
  const previous: LoadedConfig = session.loaded;
  let reloaded: LoadedConfig | undefined;
  let failure: unknown;
  try {
    reloaded = await reloadConfig(previous, options.env);
  } catch (error) {
    failure = error;
  }
  const again: Options = {
    ...options,
    model: `${session.model.providerId}/${session.model.modelId}`,
    planMode: session.modes.mode === "plan",
    subagentModels: session.subagentModels(),
    resume: session.record.messages.length > 0 ? { query: session.id } : undefined,
  };
  await session.close();
  if (reloaded) {
    try {
      return await open({ ...again, config: reloaded });
    } catch (error) {
      failure = error;
    }
  }
  const restored = await open({ ...again, config: previous });
  const warning: AgentEvent = {
    type: "notice",
    agent: { agentId: "lead", depth: 0 },
    source: "config",
    level: "warning",
    message: `The config could not be applied (${errorMessage(failure)}); the session continues with the settings it had.`,
  };
  options.host?.onEvent?.(warning);
  return restored;
}
