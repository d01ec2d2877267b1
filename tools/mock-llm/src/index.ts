export { type ProxiedRequest, startTestProxy, type TestProxy } from "./proxy/start-test-proxy.js";
export { mockEmbeddingTokens } from "./response/embeddings-body.js";
export { loadScenario } from "./scenario/load-scenario.js";
export { ScenarioError } from "./scenario/scenario-error.js";
export { validateScenario } from "./scenario/validate-scenario.js";
export { type MockLlm, type StartMockLlmOptions, startMockLlm } from "./server/start-mock-llm.js";
export type {
  MockFault,
  MockResponse,
  MockToolCall,
  RecordedMessage,
  RecordedRequest,
  Rule,
  RuleMatch,
  Scenario,
  TextMatch,
  WireApi,
} from "./types.js";
