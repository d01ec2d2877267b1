import type { MockResponse, RecordedRequest, Rule, RuleMatch, Scenario, TextMatch } from "../types.js";

/** A rule that answered, and the response it chose. */
export interface RuleAnswer {
  ruleName: string;
  response: MockResponse;
}

/**
 * Picks the answer for a request: the first rule whose `match` holds and whose `times` is not used up.
 * `uses` counts answers per rule index and is advanced here.
 */
export function answerRequest(
  scenario: Scenario,
  uses: number[],
  request: RecordedRequest,
): RuleAnswer | undefined {
  for (const [index, rule] of scenario.rules.entries()) {
    const used = uses[index] ?? 0;
    if (rule.times !== undefined && used >= rule.times) continue;
    if (!ruleMatches(rule.match, request)) continue;
    uses[index] = used + 1;
    return { ruleName: ruleName(rule, index), response: pickResponse(rule, used) };
  }
  return undefined;
}

export function ruleName(rule: Rule, index: number): string {
  return rule.name ?? `rule#${index}`;
}

function pickResponse(rule: Rule, used: number): MockResponse {
  if (!Array.isArray(rule.response)) return rule.response;
  return rule.response[Math.min(used, rule.response.length - 1)] ?? {};
}

/** Whether every field of `match` holds for the request; an absent match holds for every request. */
export function ruleMatches(match: RuleMatch | undefined, request: RecordedRequest): boolean {
  if (!match) return true;
  const tools = new Set(request.toolsOffered);
  const checks: (() => boolean)[] = [
    () => match.api === undefined || match.api === request.api,
    () => match.model === undefined || textMatches(match.model, request.model),
    () => match.system === undefined || textMatches(match.system, request.system),
    () => match.lastUser === undefined || textMatches(match.lastUser, lastUserText(request)),
    () => match.lastIsToolResult === undefined || match.lastIsToolResult === lastIsToolResult(request),
    () => match.toolsOffered === undefined || match.toolsOffered.every((name) => tools.has(name)),
    () => match.toolsNotOffered === undefined || !match.toolsNotOffered.some((name) => tools.has(name)),
    () => match.requestIndex === undefined || match.requestIndex === request.index,
    () =>
      match.anyMessage === undefined ||
      request.messages.some((entry) => textMatches(match.anyMessage!, allText(entry))),
    () =>
      match.header === undefined ||
      Object.entries(match.header).every(([name, expected]) => textMatches(expected, request.headers[name])),
  ];
  return checks.every((check) => check());
}

export function textMatches(match: TextMatch, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (typeof match === "string") return value.includes(match);
  return new RegExp(match.regex, match.flags ?? "").test(value);
}

/** Text of the last `user` message; messages that carry only tool results have role `tool` and are skipped. */
export function lastUserText(request: RecordedRequest): string | undefined {
  return request.messages.findLast((entry) => entry.role === "user")?.text;
}

export function lastIsToolResult(request: RecordedRequest): boolean {
  const last = request.messages.at(-1);
  return last !== undefined && (last.toolResults?.length ?? 0) > 0;
}

function allText(entry: RecordedRequest["messages"][number]): string {
  return [
    entry.text,
    ...(entry.toolCalls ?? []).map((call) => `${call.name} ${call.arguments}`),
    ...(entry.toolResults ?? []).map((result) => result.content),
  ].join("\n");
}
