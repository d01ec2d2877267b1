import type { Environment } from "@nyzhi/config";
import type { OpenedSession } from "@nyzhi/core";
import type { AppHeader } from "../transcript/transcript-types.js";

/** `/home/me/src/app` → `~/src/app` under the home directory; other paths as they are. */
export function homeRelative(path: string, env: Environment): string {
  const home = env.HOME?.replace(/\/+$/, "");
  if (!home) return path;
  if (path === home) return "~";
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** The header of a session just opened: what is in force for it. */
export function appHeader(session: OpenedSession, options: { version: string; env: Environment }): AppHeader {
  return {
    version: options.version,
    folder: homeRelative(session.projectRoot, options.env),
    trusted: session.loaded.projectTrusted,
    provider: session.model.providerId,
    model: session.model.modelId,
    trustMode: session.modes.trustMode(),
    sandbox: session.config.agent.sandbox,
  };
}
