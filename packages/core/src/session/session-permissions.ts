import type { LoadedConfig } from "@nyzhi/config";
import type { AgentTag } from "../events/agent-events.js";
import type { ApprovalRule } from "../permissions/approval-rules.js";
import type { TrustMode } from "../permissions/trust-mode.js";

/** The `[agent.trust]` lists a permission rule can come from. */
export const TRUST_LISTS = [
  "deny_tools",
  "deny_paths",
  "always_ask",
  "auto_approve",
  "allow_tools",
  "allow_paths",
] as const;
export type TrustList = (typeof TRUST_LISTS)[number];

/** What a rule does to a call it matches. */
export type PermissionEffect = "deny" | "ask" | "allow" | "limit";

/**
 * One rule in force, as `/permissions` lists it: the trust mode, the sandbox level, each pattern of
 * the `[agent.trust]` lists (with the file, env var or flag it came from), and each "allow always"
 * answer of this session (the only ones `forget` removes).
 */
export type PermissionRuleView =
  | { id: "trust-mode"; kind: "trust-mode"; mode: TrustMode; origin: string; description: string }
  | { id: "sandbox"; kind: "sandbox"; level: string; origin: string; description: string }
  | {
      id: string;
      kind: "config";
      list: TrustList;
      pattern: string;
      effect: PermissionEffect;
      origin: string;
      description: string;
    }
  | {
      id: string;
      kind: "allow-always";
      tool: string;
      match: ApprovalRule["match"];
      agent: AgentTag;
      description: string;
    };

/** The session's permissions: what is in force, and removing one "allow always" answer. */
export interface SessionPermissions {
  /** Every rule in force now: trust mode, sandbox, the `[agent.trust]` lists, then this session's answers. */
  list(): PermissionRuleView[];
  /** Removes the "allow always" answer `id` (its calls ask again); false when there is none. */
  forget(id: string): boolean;
}

const EFFECTS: Record<TrustList, PermissionEffect> = {
  deny_tools: "deny",
  deny_paths: "deny",
  always_ask: "ask",
  auto_approve: "allow",
  allow_tools: "allow",
  allow_paths: "limit",
};

const MEANINGS: Record<TrustList, string> = {
  deny_tools: "never runs",
  deny_paths: "no tool reads or writes it",
  always_ask: "always asks, even after allow always",
  auto_approve: "allowed without asking in every mode",
  allow_tools: "allowed without asking in limited and autoedit modes",
  allow_paths: "auto-approval is limited to it",
};

export function sessionPermissions(parts: {
  loaded: LoadedConfig;
  trustMode: () => TrustMode;
  sandboxLevel: string;
  rules: () => readonly ApprovalRule[];
  forget: (id: string) => boolean;
}): SessionPermissions {
  const { loaded } = parts;
  const origin = (key: string) => loaded.origins[key]?.source ?? "default";
  return {
    list() {
      const trust = loaded.config.agent.trust;
      const mode = parts.trustMode();
      const views: PermissionRuleView[] = [
        {
          id: "trust-mode",
          kind: "trust-mode",
          mode,
          origin: mode === trust.mode ? origin("agent.trust.mode") : "this session",
          description: `trust mode ${mode}`,
        },
        {
          id: "sandbox",
          kind: "sandbox",
          level: parts.sandboxLevel,
          origin: origin("agent.sandbox"),
          description: `sandbox ${parts.sandboxLevel}`,
        },
      ];
      for (const list of [...TRUST_LISTS]) {
        const patterns: readonly string[] = trust[list] ?? [];
        patterns.forEach((pattern, index) => {
          views.push({
            id: `${list}:${index}`,
            kind: "config",
            list,
            pattern,
            effect: EFFECTS[list],
            origin: origin(`agent.trust.${list}`),
            description: `${pattern}: ${MEANINGS[list]} (agent.trust.${list})`,
          });
        });
      }
      for (const rule of parts.rules()) {
        views.push({
          id: rule.id,
          kind: "allow-always",
          tool: rule.tool,
          match: rule.match,
          agent: rule.agent,
          description: `${rule.description}: allowed for this session`,
        });
      }
      return views;
    },
    forget: parts.forget,
  };
}
