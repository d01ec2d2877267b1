import type { Credential } from "@nyzhi/auth";
import type { ErrorContext } from "../errors/error-from-unknown.js";
import type { ProviderError } from "../errors/provider-error.js";
import type { LanguageModel, StreamOptions } from "../model/language-model.js";
import type { ModelRequest } from "../model/model-request.js";
import type { StreamPart } from "../model/stream-part.js";
import { lazy } from "./lazy.js";
import type { EventMapper } from "./map-event-stream.js";
import { type SdkEventDecoder, sdkEventStream } from "./sse-event-mapper.js";

export interface SdkModelSettings {
  providerId: string;
  modelId: string;
  credential?: Credential | undefined;
  baseUrl: string;
}

/**
 * A model that speaks through a vendor's SDK (Anthropic, OpenAI chat and Responses): the SDK client
 * made on first use, and `doStream` over `sdkEventStream`. A vendor supplies the request body, how
 * the SDK sends it, its event decoder, its event → part mapper and its error mapping.
 */
export abstract class SdkLanguageModel<Client, Body, Event> implements LanguageModel {
  readonly providerId: string;
  readonly modelId: string;
  /** The SDK client, created (and its SDK loaded) on first use. */
  private readonly client: () => Promise<Client>;
  private readonly credential: Credential | undefined;
  /** Where requests go, named in the error when it cannot be reached. */
  private readonly baseUrl: string;

  constructor(settings: SdkModelSettings, createClient: () => Promise<Client>) {
    this.providerId = settings.providerId;
    this.modelId = settings.modelId;
    this.credential = settings.credential;
    this.baseUrl = settings.baseUrl;
    this.client = lazy(createClient);
  }

  /** The body sent for `request` (exposed for tests and request logging). */
  abstract buildRequestBody(request: ModelRequest): Body;
  /** Sends `body` through the SDK and resolves with its raw response (`.asResponse()`). */
  protected abstract send(client: Client, body: Body, signal: AbortSignal): Promise<Response>;
  protected abstract decoder(): SdkEventDecoder<Client, Event>;
  /** A fresh event → part mapper for one response. */
  protected abstract streamState(): EventMapper<Event>;
  protected abstract toError(error: unknown, context: ErrorContext): ProviderError;

  doStream(request: ModelRequest, options: StreamOptions = {}): AsyncIterable<StreamPart> {
    const { signal } = options;
    const context = {
      providerId: this.providerId,
      credential: this.credential,
      signal,
      baseUrl: this.baseUrl,
    };
    return sdkEventStream({
      client: this.client,
      send: (client, streamSignal) => this.send(client, this.buildRequestBody(request), streamSignal),
      decoder: this.decoder(),
      state: this.streamState(),
      signal,
      toError: (error, phase) => this.toError(error, { ...context, phase }),
    });
  }
}
