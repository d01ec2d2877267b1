import type { NyzhiConfig, resolveDirs } from "@nyzhi/config";
import { SANDBOX_SERVICE, type SandboxSettings } from "../engines/sandbox/sandbox-settings.js";
import { WEB_ACCESS_SERVICE, type WebAccessSettings } from "../engines/web/web-access.js";
import { TODO_STORE_SERVICE, type TodoStore } from "../planning/todo-store.js";
import type { Skill } from "../skills/skill-types.js";
import { SKILLS_SERVICE } from "../skills/skill-types.js";
import type { AgentManager } from "../subagents/agent-manager.js";
import { AGENT_MANAGER_SERVICE } from "../tools/agents/lifecycle-tools.js";
import { TOOL_REGISTRY_SERVICE } from "../tools/deferred/tool-search-tool.js";
import type { ToolRegistry } from "../tools/seam/tool-registry.js";
import type { ToolContext, ToolServices } from "../tools/seam/tool-types.js";
import { heldCredentialValues, SHELL_ENVIRONMENT_SERVICE } from "../tools/shell/command-environment.js";
import type { AgentPlace } from "./child-factory.js";

/** The services every agent's tools share: sandbox, shell environment, skills, web access. */
export function runtimeServices(
  config: NyzhiConfig,
  parts: { env: NodeJS.ProcessEnv; sandbox: SandboxSettings; skills: readonly Skill[] },
): ToolServices {
  return {
    [SANDBOX_SERVICE]: parts.sandbox,
    [SHELL_ENVIRONMENT_SERVICE]: {
      passthrough: config.shell.env_passthrough,
      set: config.shell.env,
      startupCommands: config.shell.startup_commands,
      secretValues: heldCredentialValues(config, parts.env),
    },
    [SKILLS_SERVICE]: () => parts.skills,
    [WEB_ACCESS_SERVICE]: {
      allowPrivate: config.web?.allow_private === true,
      allowHosts: config.web?.allow_hosts ?? [],
    } satisfies WebAccessSettings,
  };
}

/**
 * Builds an agent's tool contexts: the shared services (read at each call: the runtime adds some
 * after this), its todo list, registry and place (the lead's unless it works in a worktree).
 */
export function toolContexts(parts: {
  sharedServices: ToolServices;
  leadPlace: AgentPlace;
  dirs: ReturnType<typeof resolveDirs>;
  manager: () => AgentManager | undefined;
}) {
  const { sharedServices, leadPlace, dirs } = parts;
  return (
    who: ToolContext["agent"],
    agentTodos: TodoStore,
    registry: ToolRegistry,
    own: ToolServices = {},
    place: AgentPlace = leadPlace,
  ) =>
    (callId: string, signal: AbortSignal, progress: ToolContext["progress"]): ToolContext => ({
      cwd: place.cwd,
      projectRoot: place.projectRoot,
      callId,
      signal,
      paths: place.guard,
      changes: place.tracker,
      dirs,
      agent: who,
      progress,
      services: {
        ...sharedServices,
        [SANDBOX_SERVICE]: place.sandbox,
        [TODO_STORE_SERVICE]: agentTodos,
        [AGENT_MANAGER_SERVICE]: parts.manager(),
        [TOOL_REGISTRY_SERVICE]: registry,
        ...own,
      },
    });
}
