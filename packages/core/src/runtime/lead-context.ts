import type { NyzhiConfig } from "@nyzhi/config";
import type { LanguageModel } from "@nyzhi/provider";
import type { AgentContext } from "../agent-loop/agent-context.js";
import { delegationGuidanceFragment } from "../agent-loop/delegation-guidance.js";
import { leadPersonaFragment } from "../agent-loop/lead-persona.js";
import {
  customInstructionsFragment,
  environmentFragment,
  type PromptFragment,
  rulesFragment,
} from "../agent-loop/system-prompt.js";
import { compactIfNeeded, describeCompactionStep } from "../compaction/compact-if-needed.js";
import { estimateTextTokens } from "../compaction/estimate-tokens.js";
import type { LifecycleHooks } from "../hooks/lifecycle-hooks.js";
import { mcpFragment } from "../mcp/mcp-fragment.js";
import { deferredToolsFragment } from "../tools/deferred/deferred-tools-fragment.js";
import type { ToolRegistry } from "../tools/seam/tool-registry.js";
import type { CreateAgentRuntimeOptions } from "./agent-runtime-types.js";

/** The lead's system prompt fragments: persona, environment, rules, instructions, delegation, tools, MCP. */
export function leadFragments(
  options: Pick<CreateAgentRuntimeOptions, "config" | "cwd" | "rules" | "mcp" | "fragments">,
  parts: { projectRoot: string; tools: ToolRegistry },
): PromptFragment[] {
  const { config, cwd } = options;
  return [
    leadPersonaFragment(),
    environmentFragment({ cwd, projectRoot: parts.projectRoot }),
    rulesFragment(options.rules),
    customInstructionsFragment(config.agent.custom_instructions),
    ...(config.agent.agents.enabled ? [delegationGuidanceFragment()] : []),
    deferredToolsFragment(parts.tools),
    mcpFragment(options.mcp?.manager.statuses() ?? []),
    ...(options.fragments ?? []),
  ];
}

/**
 * Compacts the lead's thread before a request that would pass `agent.auto_compact_threshold` of
 * `contextWindow` (tokens), running the `pre_compact` hooks first.
 */
export function compactBeforeRequests(
  context: AgentContext,
  parts: {
    model: LanguageModel;
    config: NyzhiConfig;
    contextWindow: number;
    projectRoot: string;
    sessionId: string;
    lifecycle: LifecycleHooks;
  },
): void {
  const { config } = parts;
  // The tool definitions' size, for the compaction threshold: measured again only when the set of
  // offered tools changes (serialising them every step cost ~0.5 ms); a description that grows
  // meanwhile (a new agent role) is an estimate's rounding.
  let toolTokens: { tools: ToolRegistry; key: string; tokens: number } | undefined;
  const toolDefinitionTokens = () => {
    const tools = context.tools;
    const key = `${tools.names().length}:${tools.deferredCount()}`;
    if (toolTokens?.tools !== tools || toolTokens.key !== key) {
      toolTokens = { tools, key, tokens: estimateTextTokens(JSON.stringify(tools.definitions())) };
    }
    return toolTokens.tokens;
  };
  context.beforeModelRequest = async (signal) => {
    const result = await compactIfNeeded({
      model: parts.model,
      system: context.system,
      thread: context.thread,
      contextWindow: parts.contextWindow,
      threshold: config.agent.auto_compact_threshold ?? 0.85,
      projectRoot: parts.projectRoot,
      sessionId: parts.sessionId,
      instructions: config.agent.compact_instructions,
      signal,
      fixedTokens: toolDefinitionTokens(),
      request: context.turnRequest,
    });
    if (result.steps.length === 0) return { notices: [], usage: result.usage };
    await parts.lifecycle.compactContext({ trigger: "auto", estimated_tokens: result.before }, { signal });
    context.thread.splice(0, context.thread.length, ...result.thread);
    return { notices: result.steps.map(describeCompactionStep), usage: result.usage };
  };
}
