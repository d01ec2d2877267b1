import type { MockFault, MockResponse, Rule, RuleMatch, Scenario } from "../types.js";
import { ScenarioError } from "./scenario-error.js";

const WIRE_APIS = ["anthropic", "openai-chat", "openai-responses", "gemini"];
const FINISH_REASONS = ["stop", "tool_calls", "length"];
const MATCH_KEYS = [
  "api",
  "model",
  "system",
  "lastUser",
  "lastIsToolResult",
  "toolsOffered",
  "toolsNotOffered",
  "requestIndex",
  "anyMessage",
  "header",
];
const TEXT_MATCH_KEYS = ["model", "system", "lastUser", "anyMessage"];

type Fail = (field: string, problem: string) => never;

/**
 * Checks that `value` is a `Scenario` and returns it typed.
 * Throws `ScenarioError` naming `source` and the first bad field (e.g. `rules[2].response.toolCalls[0].name`).
 */
export function validateScenario(value: unknown, source = "scenario"): Scenario {
  const fail: Fail = (field, problem) => {
    throw new ScenarioError(`${source}: ${field} ${problem}`, source, field);
  };
  if (!isObject(value)) fail("(root)", "must be an object with a `rules` array");
  const scenario = value as Record<string, unknown>;
  if (!Array.isArray(scenario.rules)) fail("rules", "must be an array");
  (scenario.rules as unknown[]).forEach((rule, index) => {
    validateRule(rule, `rules[${index}]`, fail);
  });
  if (scenario.fallback !== undefined) validateResponse(scenario.fallback, "fallback", fail);
  if (scenario.models !== undefined) validateStringArray(scenario.models, "models", fail);
  checkKnownKeys(scenario, ["rules", "fallback", "models", "$schema", "description"], "", fail);
  return value as unknown as Scenario;
}

function validateRule(value: unknown, field: string, fail: Fail): asserts value is Rule {
  if (!isObject(value)) fail(field, "must be an object");
  if (value.name !== undefined && typeof value.name !== "string") fail(`${field}.name`, "must be a string");
  if (value.times !== undefined && !isNonNegativeInteger(value.times)) {
    fail(`${field}.times`, "must be a non-negative integer");
  }
  if (value.match !== undefined) validateMatch(value.match, `${field}.match`, fail);
  if (value.response === undefined) fail(`${field}.response`, "is required");
  if (Array.isArray(value.response)) {
    if (value.response.length === 0) fail(`${field}.response`, "must not be an empty list");
    value.response.forEach((response, index) => {
      validateResponse(response, `${field}.response[${index}]`, fail);
    });
  } else {
    validateResponse(value.response, `${field}.response`, fail);
  }
  checkKnownKeys(value, ["name", "match", "times", "response", "description"], `${field}.`, fail);
}

function validateMatch(value: unknown, field: string, fail: Fail): asserts value is RuleMatch {
  if (!isObject(value)) fail(field, "must be an object");
  checkKnownKeys(value, MATCH_KEYS, `${field}.`, fail);
  if (value.api !== undefined && !WIRE_APIS.includes(value.api as string)) {
    fail(`${field}.api`, `must be one of ${WIRE_APIS.join(", ")}`);
  }
  for (const key of TEXT_MATCH_KEYS) {
    if (value[key] !== undefined) validateTextMatch(value[key], `${field}.${key}`, fail);
  }
  if (value.lastIsToolResult !== undefined && typeof value.lastIsToolResult !== "boolean") {
    fail(`${field}.lastIsToolResult`, "must be a boolean");
  }
  if (value.toolsOffered !== undefined)
    validateStringArray(value.toolsOffered, `${field}.toolsOffered`, fail);
  if (value.toolsNotOffered !== undefined) {
    validateStringArray(value.toolsNotOffered, `${field}.toolsNotOffered`, fail);
  }
  if (
    value.requestIndex !== undefined &&
    !(isNonNegativeInteger(value.requestIndex) && value.requestIndex > 0)
  ) {
    fail(`${field}.requestIndex`, "must be a positive integer (1-based)");
  }
  if (value.header !== undefined) {
    if (!isObject(value.header)) fail(`${field}.header`, "must be an object of header name to match");
    for (const [name, match] of Object.entries(value.header)) {
      if (name !== name.toLowerCase()) fail(`${field}.header.${name}`, "must be a lowercase header name");
      validateTextMatch(match, `${field}.header.${name}`, fail);
    }
  }
}

function validateTextMatch(value: unknown, field: string, fail: Fail): void {
  if (typeof value === "string") return;
  if (!isObject(value) || typeof value.regex !== "string") {
    fail(field, 'must be a string or { "regex": string, "flags"?: string }');
  }
  try {
    new RegExp(value.regex as string, (value.flags as string | undefined) ?? "");
  } catch (error) {
    fail(field, `has an invalid regex: ${(error as Error).message}`);
  }
}

function validateResponse(value: unknown, field: string, fail: Fail): asserts value is MockResponse {
  if (!isObject(value)) fail(field, "must be an object");
  checkKnownKeys(
    value,
    ["text", "reasoning", "toolCalls", "usage", "finishReason", "delayMs", "chunkDelayMs", "fault"],
    `${field}.`,
    fail,
  );
  for (const key of ["text", "reasoning"]) {
    const text = value[key];
    if (text !== undefined && typeof text !== "string") validateStringArray(text, `${field}.${key}`, fail);
  }
  if (value.toolCalls !== undefined) {
    if (!Array.isArray(value.toolCalls)) fail(`${field}.toolCalls`, "must be an array");
    value.toolCalls.forEach((call, index) => {
      validateToolCall(call, `${field}.toolCalls[${index}]`, fail);
    });
  }
  if (value.usage !== undefined) {
    if (!isObject(value.usage)) fail(`${field}.usage`, "must be an object");
    checkKnownKeys(value.usage, ["inputTokens", "outputTokens", "cacheReadTokens"], `${field}.usage.`, fail);
    for (const [key, count] of Object.entries(value.usage)) {
      if (!isNonNegativeInteger(count)) fail(`${field}.usage.${key}`, "must be a non-negative integer");
    }
  }
  if (value.finishReason !== undefined && !FINISH_REASONS.includes(value.finishReason as string)) {
    fail(`${field}.finishReason`, `must be one of ${FINISH_REASONS.join(", ")}`);
  }
  for (const key of ["delayMs", "chunkDelayMs"]) {
    if (value[key] !== undefined && !isNonNegativeNumber(value[key])) {
      fail(`${field}.${key}`, "must be a non-negative number of ms");
    }
  }
  if (value.fault !== undefined) validateFault(value.fault, `${field}.fault`, fail);
}

function validateToolCall(value: unknown, field: string, fail: Fail): void {
  if (!isObject(value)) fail(field, "must be an object");
  checkKnownKeys(value, ["name", "arguments", "id", "argumentChunks"], `${field}.`, fail);
  if (typeof value.name !== "string" || value.name === "")
    fail(`${field}.name`, "must be a non-empty string");
  if (typeof value.arguments !== "string" && !isObject(value.arguments)) {
    fail(`${field}.arguments`, "must be an object or a JSON string");
  }
  if (value.id !== undefined && typeof value.id !== "string") fail(`${field}.id`, "must be a string");
  if (
    value.argumentChunks !== undefined &&
    !(isNonNegativeInteger(value.argumentChunks) && value.argumentChunks > 0)
  ) {
    fail(`${field}.argumentChunks`, "must be a positive integer");
  }
}

function validateFault(value: unknown, field: string, fail: Fail): asserts value is MockFault {
  if (!isObject(value)) fail(field, "must be an object");
  const afterChunks = value.afterChunks;
  if (afterChunks !== undefined && !isNonNegativeInteger(afterChunks)) {
    fail(`${field}.afterChunks`, "must be a non-negative integer");
  }
  switch (value.type) {
    case "status":
      if (!isNonNegativeInteger(value.status) || value.status < 400 || value.status > 599) {
        fail(`${field}.status`, "must be an HTTP error status (400-599)");
      }
      if (value.retryAfter !== undefined && !isNonNegativeNumber(value.retryAfter)) {
        fail(`${field}.retryAfter`, "must be a non-negative number of seconds");
      }
      if (value.message !== undefined && typeof value.message !== "string") {
        fail(`${field}.message`, "must be a string");
      }
      checkKnownKeys(value, ["type", "status", "retryAfter", "message", "afterChunks"], `${field}.`, fail);
      return;
    case "cut":
      if (afterChunks === undefined) fail(`${field}.afterChunks`, "is required for a cut");
      checkKnownKeys(value, ["type", "afterChunks"], `${field}.`, fail);
      return;
    case "hang":
    case "malformed":
      checkKnownKeys(value, ["type", "afterChunks"], `${field}.`, fail);
      return;
    default:
      fail(`${field}.type`, 'must be one of "status", "hang", "cut", "malformed"');
  }
}

function validateStringArray(value: unknown, field: string, fail: Fail): void {
  if (!Array.isArray(value)) fail(field, "must be an array of strings");
  value.forEach((item, index) => {
    if (typeof item !== "string") fail(`${field}[${index}]`, "must be a string");
  });
}

function checkKnownKeys(value: Record<string, unknown>, known: string[], prefix: string, fail: Fail): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) fail(`${prefix}${key}`, `is not a known field (known: ${known.join(", ")})`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function isNonNegativeNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}
