import { resolve } from "node:path";
import { errorMessage } from "@nyzhi/config";
import { matchControlFile } from "../engines/sandbox/control-files.js";
import { compilePathPatterns } from "../engines/sandbox/path-patterns.js";
import { isWithin, resolveRealPath } from "../engines/sandbox/resolve-real-path.js";
import type { ToolKind } from "../tools/seam/tool-types.js";
import type { PermissionDecision, PermissionPolicy, PermissionRequest } from "./permission-types.js";
import { compileToolPatterns } from "./tool-patterns.js";
import { DEFAULT_TRUST_SETTINGS, type TrustMode, type TrustSettings } from "./trust-mode.js";

export interface PermissionPolicyOptions {
  /** `[agent.trust]`; missing keys take the defaults (mode off, empty lists). */
  trust: Partial<TrustSettings>;
  /** Workspace roots: relative path patterns are anchored here; auto-approval never leaves them. */
  roots: readonly string[];
  /** Relative tool paths resolve against it. */
  cwd: string;
  /**
   * Control files beyond the named ones (`.nyzhi/**`, `.claude/settings*.json`, `.mcp.json` …;
   * see control-files.ts), by absolute path: hook and MCP server scripts, the global config.
   */
  controlFiles?: readonly string[];
  /**
   * The session's mode now, when it can change while the session runs (Shift+Tab to auto-accept
   * edits): read at every decision; undefined means `trust.mode`.
   */
  modeNow?: () => TrustMode | undefined;
}

/** Kinds that change or reach outside the machine whatever the tool's `mutates` flag says. */
const NEVER_READ_ONLY: ReadonlySet<ToolKind> = new Set(["edit", "execute", "network"]);

/**
 * The trust policy (core §4.3, §4.4), in this order:
 * 1. `deny_tools` / `deny_paths` deny, for every tool and kind, read-only ones included, on the
 *    lexical and the real (symlink-resolved) path of every path argument;
 * 2. `always_ask` asks (and "allow always" does not silence it);
 * 3. a write to one of the agent's control files (see control-files.ts) asks in every mode but
 *    `full`, whatever `auto_approve` and `allow_tools` say, and "allow always" does not silence it;
 * 4. `auto_approve` allows;
 * 5. read-only calls are allowed;
 * 6. the mode: `full` allows; `autoedit` allows edit-kind tools (and `allow_tools`) when every
 *    path is inside the workspace and `allow_paths`; `limited` allows only `allow_tools` under the
 *    same path rule; `off` asks. Everything else asks.
 */
export function createPermissionPolicy(options: PermissionPolicyOptions): PermissionPolicy {
  const trust: TrustSettings = { ...DEFAULT_TRUST_SETTINGS, ...options.trust };
  const denyTools = compileToolPatterns(trust.deny_tools);
  const alwaysAsk = compileToolPatterns(trust.always_ask);
  const autoApprove = compileToolPatterns(trust.auto_approve);
  const allowTools = compileToolPatterns(trust.allow_tools);
  let prepared: Promise<string[]> | undefined;
  const realRoots = () => {
    prepared ??= Promise.all(options.roots.map((root) => resolveRealPath(root, options.cwd)));
    return prepared;
  };

  return {
    async decide(request: PermissionRequest): Promise<PermissionDecision> {
      const denyTool = denyTools.match(request.tool);
      if (denyTool !== undefined) {
        return {
          action: "deny",
          reason: `\`${request.tool}\` is blocked by the deny_tools rule "${denyTool}"`,
        };
      }
      const roots = await realRoots();
      const denyPaths = compilePathPatterns(trust.deny_paths, roots);
      const allowPaths = compilePathPatterns(trust.allow_paths, roots);
      const resolved: string[] = [];
      let controlFile: { path: string; rule: string } | undefined;
      for (const use of request.paths) {
        const lexical = resolve(options.cwd, use.path);
        let real: string;
        try {
          real = await resolveRealPath(lexical, options.cwd);
        } catch (error) {
          return { action: "deny", reason: `cannot check ${lexical}: ${errorMessage(error)}` };
        }
        const rule = denyPaths.match(lexical) ?? denyPaths.match(real);
        if (rule !== undefined) {
          return { action: "deny", reason: `${real} is blocked by the deny_paths rule "${rule}"` };
        }
        resolved.push(real);
        if (use.access === "write" && controlFile === undefined) {
          const control = { roots, files: options.controlFiles ?? [] };
          const rule = matchControlFile(lexical, control) ?? matchControlFile(real, control);
          if (rule !== undefined) controlFile = { path: real, rule };
        }
      }

      const alwaysAskRule = alwaysAsk.match(request.tool);
      if (alwaysAskRule !== undefined) {
        return { action: "ask", reason: `always_ask rule "${alwaysAskRule}"`, rememberable: false };
      }
      const mode = options.modeNow?.() ?? trust.mode;
      if (controlFile !== undefined && mode !== "full") {
        return {
          action: "ask",
          reason: `${controlFile.path} is one of the agent's control files (${controlFile.rule}): writing it always asks unless trust mode is full`,
          rememberable: false,
          controlFile: controlFile.path,
        };
      }
      const autoApproveRule = autoApprove.match(request.tool);
      if (autoApproveRule !== undefined)
        return { action: "allow", reason: `auto_approve rule "${autoApproveRule}"` };
      if (!request.mutates && !NEVER_READ_ONLY.has(request.kind))
        return { action: "allow", reason: "read-only tool" };

      const pathsAllowed = resolved.every(
        (path) =>
          roots.some((root) => isWithin(path, root)) &&
          (trust.allow_paths.length === 0 || allowPaths.match(path) !== undefined),
      );
      const listed = allowTools.match(request.tool) !== undefined;
      switch (mode) {
        case "full":
          return { action: "allow", reason: "trust mode full" };
        case "autoedit":
          if ((listed || (request.kind === "edit" && allowTools.isEmpty)) && pathsAllowed) {
            return {
              action: "allow",
              reason: listed ? "allow_tools in trust mode autoedit" : "edit in trust mode autoedit",
            };
          }
          return ask(`trust mode autoedit asks for ${describe(request.kind, pathsAllowed)}`);
        case "limited":
          if (listed && pathsAllowed) return { action: "allow", reason: "allow_tools in trust mode limited" };
          return ask(
            `trust mode limited asks for ${listed ? describe(request.kind, pathsAllowed) : "tools not in allow_tools"}`,
          );
        case "off":
          return ask("trust mode off asks before every change");
      }
    },
  };
}

function ask(reason: string): PermissionDecision {
  return { action: "ask", reason, rememberable: true };
}

function describe(kind: ToolKind, pathsAllowed: boolean): string {
  if (!pathsAllowed) return "paths outside the workspace or allow_paths";
  return `${kind} tools`;
}
