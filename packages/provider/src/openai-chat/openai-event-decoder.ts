import type OpenAI from "openai";
import type { SseEvent } from "../sse/parse-sse-stream.js";

/**
 * Reads OpenAI-style SSE events as the `openai` SDK's stream does: `[DONE]` ends the events (any
 * after it are ignored), each other event is JSON, and a payload carrying `error` (sent inside a
 * 200 stream) is thrown as the SDK's `APIError` without a status, which `openaiError` maps.
 * Shared by the Chat Completions and Responses adapters.
 */
export class OpenAIEventDecoder<Event> {
  private done = false;
  private streamError: (error: unknown) => Error = (error) => new Error(JSON.stringify(error));

  /** Builds in-stream errors with the loaded SDK's `APIError` and the response's headers. */
  bind(client: OpenAI, response: Response): void {
    const { APIError } = client.constructor as typeof OpenAI;
    this.streamError = (error) => new APIError(undefined, error as object, undefined, response.headers);
  }

  readonly decode = (event: SseEvent): Event | undefined => {
    if (this.done) return undefined;
    if (event.data.startsWith("[DONE]")) {
      this.done = true;
      return undefined;
    }
    const data = JSON.parse(event.data) as { error?: unknown } | null;
    if (data?.error) throw this.streamError(data.error);
    return data as Event;
  };
}
