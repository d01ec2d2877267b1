import { type MockLlm, type Scenario, startMockLlm } from "@nyzhi/mock-llm";

/** Environment that points `nyz` at the mock server through the Anthropic adapter. */
export function anthropicEnv(mock: MockLlm, home: string): Record<string, string> {
  return {
    NYZHI_HOME: home,
    NYZHI_PROVIDER: "anthropic",
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: `${mock.url}/v1`,
    NYZHI_CREDENTIAL_STORE: "file",
  };
}

/** Environment that points `nyz` at the mock server through the OpenAI adapter. */
export function openaiEnv(mock: MockLlm, home: string): Record<string, string> {
  return {
    NYZHI_HOME: home,
    NYZHI_PROVIDER: "openai",
    OPENAI_API_KEY: "sk-openai-test",
    OPENAI_BASE_URL: `${mock.url}/v1`,
    NYZHI_CREDENTIAL_STORE: "file",
  };
}

export async function startScenario(scenario: Scenario): Promise<MockLlm> {
  return startMockLlm({ scenario });
}
