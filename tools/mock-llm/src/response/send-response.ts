import type { ServerResponse } from "node:http";
import type { NormalisedRequest } from "../request/normalise-request.js";
import type { MockResponse } from "../types.js";
import type { ResponsePlan } from "./plan-response.js";
import { type SseEvent, serialiseSseEvent, type WireFormat } from "./wire-format.js";

export interface SendOptions {
  format: WireFormat;
  plan: ResponsePlan;
  request: NormalisedRequest;
  response: MockResponse;
  /** Aborted when the client goes away or the server closes. */
  signal: AbortSignal;
  /** Gemini `:streamGenerateContent` without `alt=sse` answers one JSON array of the chunks. */
  geminiJsonArray?: boolean;
}

/**
 * Writes a scripted answer: waits `delayMs`, then applies the fault (status, hang, cut, malformed) or
 * sends the stream / body. Resolves when done writing or when the response hangs by design.
 */
export async function sendAnswer(res: ServerResponse, options: SendOptions): Promise<void> {
  const { format, plan, request, response, signal } = options;
  if (!(await sleep(response.delayMs ?? 0, signal))) return;
  const fault = response.fault;
  if (fault?.type === "status" && (fault.afterChunks === undefined || !request.stream)) {
    sendError(res, format, fault.status, fault.message ?? defaultMessage(fault.status), fault.retryAfter);
    return;
  }
  if (fault?.type === "hang" && (fault.afterChunks === undefined || !request.stream)) return;
  if (!request.stream) {
    sendBody(res, format, plan, response);
    return;
  }
  if (options.geminiJsonArray) {
    sendJsonArray(res, format.streamEvents(plan, request));
    return;
  }
  await sendStream(res, format, format.streamEvents(plan, request), response, signal);
}

async function sendStream(
  res: ServerResponse,
  format: WireFormat,
  events: SseEvent[],
  response: MockResponse,
  signal: AbortSignal,
): Promise<void> {
  const fault = response.fault;
  const stopAt = fault ? (fault.afterChunks ?? 1) : events.length;
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  res.flushHeaders();
  for (const [index, event] of events.entries()) {
    if (signal.aborted) return;
    if (index > 0 && !(await sleep(response.chunkDelayMs ?? 0, signal))) return;
    if (index >= stopAt) break;
    res.write(serialiseSseEvent(event));
  }
  const next = events[stopAt];
  if (fault?.type === "hang") return;
  if (fault?.type === "status") {
    res.write(
      serialiseSseEvent(format.errorEvent(fault.status, fault.message ?? defaultMessage(fault.status))),
    );
  }
  if (fault?.type === "cut") {
    const text = next === undefined ? "" : serialiseSseEvent(next);
    cutAfter(res, text.slice(0, Math.max(1, Math.floor(text.length / 2))));
    return;
  }
  if (fault?.type === "malformed") {
    const data = next?.data.startsWith("{") ? next.data : '{"type":"mock"}';
    res.write(
      serialiseSseEvent({ ...(next ?? {}), data: `${data.slice(0, Math.floor(data.length / 2))}<<not json` }),
    );
  }
  res.end();
}

function sendBody(res: ServerResponse, format: WireFormat, plan: ResponsePlan, response: MockResponse): void {
  const text = JSON.stringify(format.body(plan));
  const fault = response.fault;
  if (fault?.type === "cut") {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    cutAfter(res, text.slice(0, Math.floor(text.length / 2)));
    return;
  }
  const body = fault?.type === "malformed" ? `${text.slice(0, Math.floor(text.length / 2))}<<not json` : text;
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function sendJsonArray(res: ServerResponse, events: SseEvent[]): void {
  const body = `[${events.map((event) => event.data).join(",\r\n")}]`;
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/** Sends `text`, then destroys the socket once it is flushed, so the client sees a connection cut mid-message. */
function cutAfter(res: ServerResponse, text: string): void {
  res.write(text, () => {
    res.socket?.destroy();
    res.destroy();
  });
}

/** An error in the provider's shape; `retryAfterSeconds` sets `Retry-After`. */
export function sendError(
  res: ServerResponse,
  format: WireFormat | undefined,
  status: number,
  message: string,
  retryAfterSeconds?: number,
): void {
  const body = JSON.stringify(format ? format.errorBody(status, message) : { error: { message } });
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  };
  if (retryAfterSeconds !== undefined) headers["retry-after"] = String(retryAfterSeconds);
  res.writeHead(status, headers);
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function defaultMessage(status: number): string {
  if (status === 429) return "mock-llm: rate limited";
  if (status === 401) return "mock-llm: invalid api key";
  if (status >= 500) return `mock-llm: server error ${status}`;
  return `mock-llm: error ${status}`;
}

/** Waits `ms`; resolves false if `signal` aborts first (the client left). */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
