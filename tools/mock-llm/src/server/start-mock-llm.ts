import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { normaliseRequest } from "../request/normalise-request.js";
import { routeRequest } from "../request/route-request.js";
import { anthropicFormat } from "../response/anthropic-format.js";
import { embeddingsBody } from "../response/embeddings-body.js";
import { geminiFormat } from "../response/gemini-format.js";
import { openAiChatFormat } from "../response/openai-chat-format.js";
import { openAiResponsesFormat } from "../response/openai-responses-format.js";
import { planResponse } from "../response/plan-response.js";
import { sendAnswer, sendError, sendJson } from "../response/send-response.js";
import type { WireFormat } from "../response/wire-format.js";
import { loadScenario } from "../scenario/load-scenario.js";
import { answerRequest, lastUserText } from "../scenario/match-rule.js";
import { validateScenario } from "../scenario/validate-scenario.js";
import type { RecordedRequest, Scenario, WireApi } from "../types.js";
import { modelsBody, scenarioModels } from "./list-models.js";
import { parseJsonBody, readBody, recordRequest } from "./record-request.js";

export interface StartMockLlmOptions {
  scenario?: Scenario;
  /** A JSON scenario file, read and validated at start; used when `scenario` is not given. */
  scenarioFile?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Called when a request's response has finished or its connection closed. */
  onRequestEnd?: (request: RecordedRequest) => void;
}

export interface MockLlm {
  /** `http://host:port`, no trailing slash. */
  url: string;
  port: number;
  /** Every request received, in order; a live array that `reset()` empties in place. */
  readonly requests: RecordedRequest[];
  /** Highest number of requests open at once (received, response not yet finished) since start or reset. */
  readonly maxConcurrent: number;
  readonly openNow: number;
  /** Replaces the scenario (validated) and resets the rule counters; recorded requests stay. */
  setScenario(scenario: Scenario): void;
  /** Clears recorded requests, rule counters, generated id counters and `maxConcurrent`. */
  reset(): void;
  /** Resolves with `requests` once at least `count` have been received; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Ends hanging and open responses and stops the server. */
  close(): Promise<void>;
}

const FORMATS: Record<WireApi, WireFormat> = {
  anthropic: anthropicFormat,
  "openai-chat": openAiChatFormat,
  "openai-responses": openAiResponsesFormat,
  gemini: geminiFormat,
};

/** Starts a scripted mock LLM server on 127.0.0.1 (a free port by default). */
export async function startMockLlm(options: StartMockLlmOptions = {}): Promise<MockLlm> {
  let scenario = validateScenario(
    options.scenario ?? (options.scenarioFile ? await loadScenario(options.scenarioFile) : { rules: [] }),
    options.scenario ? "scenario" : (options.scenarioFile ?? "scenario"),
  );
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  let ruleUses: number[] = [];
  let idCounter = 0;
  const connections = new WeakMap<object, number>();
  let connectionCount = 0;
  let maxConcurrent = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const startedAt = preciseNow();
    const controller = new AbortController();
    let recorded: RecordedRequest | undefined;
    open.add(res);
    maxConcurrent = Math.max(maxConcurrent, open.size);
    res.on("close", () => {
      open.delete(res);
      controller.abort();
      if (!recorded) return;
      recorded.status = res.headersSent ? res.statusCode : undefined;
      recorded.endedAt = preciseNow();
      options.onRequestEnd?.(recorded);
    });
    const url = new URL(req.url ?? "/", "http://mock");
    const route = routeRequest(req.method ?? "GET", url.pathname);
    const rawBody = await readBody(req);
    const body = parseJsonBody(rawBody);
    const normalised = normaliseRequest(route, body);
    recorded = recordRequest({
      index: requests.length + 1,
      req,
      url,
      route,
      body,
      normalised,
      connection: connections.get(req.socket) ?? 0,
      startedAt,
    });
    requests.push(recorded);
    for (const wake of waiters) wake();

    if (route.api === "models") {
      const style = req.headers["anthropic-version"]
        ? "anthropic"
        : url.pathname.includes("v1beta")
          ? "gemini"
          : "openai";
      sendJson(res, 200, modelsBody(scenarioModels(scenario), style));
      return;
    }
    if (route.api === "embeddings") {
      const answer = embeddingsBody(body);
      sendJson(res, answer.status, answer.body);
      return;
    }
    if (route.api === "unknown") {
      sendError(res, undefined, 404, `mock-llm: no endpoint ${recorded.method} ${url.pathname}`);
      return;
    }
    const format = FORMATS[route.api];
    if (body === undefined) {
      sendError(res, format, 400, `mock-llm: request #${recorded.index} body is not valid JSON`);
      return;
    }
    const answer = answerRequest(scenario, ruleUses, recorded);
    const response = answer?.response ?? scenario.fallback;
    if (!response) {
      sendError(res, format, 500, unmatchedMessage(recorded));
      return;
    }
    recorded.rule = answer?.ruleName ?? "fallback";
    const plan = planResponse(response, {
      model: normalised.model ?? "mock-model",
      nextId: () => ++idCounter,
      toolIdPrefix: format.toolIdPrefix,
      requestChars: rawBody.length,
    });
    const geminiJsonArray =
      route.api === "gemini" && normalised.stream && url.searchParams.get("alt") !== "sse";
    await sendAnswer(res, {
      format,
      plan,
      request: normalised,
      response,
      signal: controller.signal,
      geminiJsonArray,
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, undefined, 500, `mock-llm internal error: ${String(error)}`);
      else res.destroy();
    });
  });
  server.on("connection", (socket) => connections.set(socket, ++connectionCount));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    requests,
    get maxConcurrent() {
      return maxConcurrent;
    },
    get openNow() {
      return open.size;
    },
    setScenario(next) {
      scenario = validateScenario(next);
      ruleUses = [];
    },
    reset() {
      requests.length = 0;
      connectionCount = 0;
      ruleUses = [];
      idCounter = 0;
      maxConcurrent = open.size;
    },
    waitForRequests(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(requests);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`mock-llm: waited ${timeoutMs} ms for ${count} requests, got ${requests.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      for (const res of open) res.destroy();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function unmatchedMessage(request: RecordedRequest): string {
  const lastUser = lastUserText(request);
  const parts = [
    `mock-llm: no rule matched request #${request.index} ${request.method} ${request.path}`,
    `model=${request.model ?? "(none)"}`,
    `lastUser=${lastUser === undefined ? "(none)" : JSON.stringify(lastUser.slice(0, 80))}`,
    `tools=[${request.toolsOffered.join(",")}]`,
  ];
  return parts.join(" ");
}

/** Epoch milliseconds with sub-millisecond precision, so benchmarks can subtract the mock's own time. */
function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}
