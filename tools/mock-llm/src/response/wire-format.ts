import type { NormalisedRequest } from "../request/normalise-request.js";
import type { WireApi } from "../types.js";
import type { ResponsePlan } from "./plan-response.js";

/** One server-sent event; `event` is omitted by the formats that send data lines only. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** How one provider API writes a planned answer and an error. */
export interface WireFormat {
  api: WireApi;
  toolIdPrefix: string;
  streamEvents(plan: ResponsePlan, request: NormalisedRequest): SseEvent[];
  body(plan: ResponsePlan): unknown;
  errorBody(status: number, message: string): unknown;
  /** The error as an event inside an already open stream. */
  errorEvent(status: number, message: string): SseEvent;
}

export function serialiseSseEvent(event: SseEvent): string {
  return `${event.event === undefined ? "" : `event: ${event.event}\n`}data: ${event.data}\n\n`;
}

/** An SSE event whose data is `value` as JSON. */
export function jsonEvent(value: Record<string, unknown>, event?: string): SseEvent {
  return event === undefined ? { data: JSON.stringify(value) } : { event, data: JSON.stringify(value) };
}
