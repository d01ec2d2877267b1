import { mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig, type NyzhiConfig } from "@nyzhi/config";
import { type MockLlm, type Scenario, startMockLlm } from "@nyzhi/mock-llm";
import type { AgentEvent } from "../../events/agent-events.js";
import type { McpSession } from "../../mcp/mcp-session.js";
import type { ApprovalCallback } from "../../permissions/approval-broker.js";
import { RoleCatalog } from "../../roles/role-catalog.js";
import {
  type AgentRuntime,
  type CreateAgentRuntimeOptions,
  createAgentRuntime,
} from "../create-agent-runtime.js";
import { createModelResolver } from "../model-resolver.js";

/** The lead's persona starts with this; children's role prompts do not. */
export const LEAD_MARK = "You are Nizzy";

export interface SubagentHarness {
  mock: MockLlm;
  runtime: AgentRuntime;
  workspace: string;
  events: AgentEvent[];
  /** Runs one lead turn, collecting every event (the lead's and the children's). */
  turn(prompt: string): Promise<AgentEvent[]>;
  close(): Promise<void>;
}

/**
 * A lead runtime on the mock LLM server (Anthropic wire format, real SDK) with subagents on,
 * full trust unless the test changes it, models resolved from config like the CLI does.
 */
export async function startSubagentHarness(
  scenario: Scenario,
  options: {
    configure?: (config: NyzhiConfig) => void;
    approve?: ApprovalCallback;
    overrides?: Record<string, string>;
    workspace?: string;
    beforeRoles?: (workspace: string) => Promise<void>;
    /** MCP servers for the session (their tools reach the lead and, fenced, the children). */
    mcp?: (workspace: string) => Promise<McpSession>;
    /** More runtime options (extra tools, skills …). */
    runtime?: Partial<CreateAgentRuntimeOptions>;
  } = {},
): Promise<SubagentHarness> {
  const mock = await startMockLlm({ scenario });
  const workspace = options.workspace ?? (await realpath(await mkdtemp(join(tmpdir(), "nyzhi-subagents-"))));
  const env = {
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: `${mock.url}/v1`,
    NYZHI_HOME: join(workspace, ".nyzhi-home"),
    NYZHI_CREDENTIAL_STORE: "file",
  };
  const config = defaultConfig();
  config.provider.default = "anthropic";
  config.agent.trust.mode = "full";
  config.agent.retry.max_retries = 0;
  options.configure?.(config);
  await options.beforeRoles?.(workspace);
  const roles = await RoleCatalog.load({
    config,
    projectRoot: workspace,
    globalConfigDir: join(env.NYZHI_HOME, "config"),
  });
  const resolveModel = createModelResolver({ config, env });
  const events: AgentEvent[] = [];
  const mcp = await options.mcp?.(workspace);
  const runtime = createAgentRuntime({
    ...(mcp ? { mcp } : {}),
    config,
    model: await resolveModel(undefined),
    resolveModel,
    cwd: workspace,
    env,
    roles,
    ...(options.overrides ? { subagentModelOverrides: options.overrides } : {}),
    ...options.runtime,
    host: {
      ...(options.approve ? { approve: options.approve } : {}),
      onBackgroundEvent: (event) => events.push(event),
    },
  });
  return {
    mock,
    runtime,
    workspace,
    events,
    async turn(prompt) {
      const seen: AgentEvent[] = [];
      for await (const event of runtime.runTurn(prompt)) seen.push(event);
      events.push(...seen);
      return seen;
    },
    async close() {
      await runtime.close();
      await mcp?.close();
      await mock.close();
    },
  };
}

/** Resolves when `predicate` holds, checking every 10 ms; rejects after `timeoutMs`. */
export async function until(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
