import type Anthropic from "@anthropic-ai/sdk";
import type { SseEvent } from "../sse/parse-sse-stream.js";

/**
 * Reads Anthropic SSE events as `@anthropic-ai/sdk`'s stream does: `ping` and unnamed events are
 * skipped, each other event is JSON, and an `error` event (sent inside a 200 stream) is thrown as
 * the SDK's `APIError` without a status, its `type` from the body (e.g. `overloaded_error`), which
 * `anthropicError` maps.
 */
export class AnthropicEventDecoder {
  private streamError: (body: unknown) => Error = (body) => new Error(JSON.stringify(body));

  /** Builds in-stream errors with the loaded SDK's `APIError` and the response's headers. */
  bind(client: Anthropic, response: Response): void {
    const { APIError } = client.constructor as typeof Anthropic;
    this.streamError = (body) =>
      new APIError(
        undefined,
        body as object,
        undefined,
        response.headers,
        errorType(body) as ConstructorParameters<typeof APIError>[4],
      );
  }

  readonly decode = (event: SseEvent): Anthropic.RawMessageStreamEvent | undefined => {
    if (event.event === undefined || event.event === "ping") return undefined;
    if (event.event === "error") throw this.streamError(safeJson(event.data) ?? event.data);
    if (!event.data) return undefined;
    return JSON.parse(event.data) as Anthropic.RawMessageStreamEvent;
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorType(body: unknown): string | undefined {
  const type = (body as { error?: { type?: unknown } } | undefined)?.error?.type;
  return typeof type === "string" ? type : undefined;
}
