import { LightHeaders } from "./light-headers.js";
import type { NodeBody } from "./node-body.js";

export interface LightResponseInit {
  status: number;
  statusText: string;
  headers: LightHeaders;
  url: string;
  redirected: boolean;
}

/**
 * The `Response` nodeHttpFetch returns: the standard interface over a web `ReadableStream` body,
 * without constructing Node's (undici's) `Response`, whose first use loads all of undici (see
 * LightHeaders). Bodies read as the standard class reads them: once (`bodyUsed`, then a
 * `TypeError`), text as UTF-8 without a leading byte-order mark, `clone()` by teeing the stream.
 * `formData()` hands the bytes to Node's own `Response`. `instanceof Response` holds for it in the
 * CLI bundle (see webGlobalStub).
 */
export class LightResponse implements Response {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected: boolean;
  readonly type: Response["type"] = "basic";
  #body: ReadableStream<Uint8Array> | null;
  /** A body over a Node stream: its web stream is made when first asked for (see NodeBody). */
  #node: NodeBody | undefined;
  #used = false;

  constructor(body: ReadableStream<Uint8Array> | NodeBody | null, init: LightResponseInit) {
    if (body !== null && !(body instanceof ReadableStream)) {
      this.#node = body;
      this.#body = null;
    } else {
      this.#body = body === null ? null : this.#watched(body);
    }
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.url = init.url;
    this.redirected = init.redirected;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return Object.prototype.toString.call(value) === "[object Response]";
  }

  get [Symbol.toStringTag](): string {
    return "Response";
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    this.#makeWeb();
    return this.#body as ReadableStream<Uint8Array<ArrayBuffer>> | null;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const body = this.#take();
    if (!body) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    let length = 0;
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.byteLength;
    }
    const bytes = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return bytes;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.bytes()).buffer;
  }

  async text(): Promise<string> {
    // TextDecoder drops a leading byte-order mark, as the standard `text()` does.
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.bytes()], { type: this.headers.get("content-type") ?? "" });
  }

  async formData(): Promise<FormData> {
    const NodeResponse = globalThis.Response;
    return new NodeResponse(await this.bytes(), { headers: [...this.headers] }).formData();
  }

  clone(): Response {
    this.#makeWeb();
    if (this.#used || this.#body?.locked)
      throw new TypeError("Response.clone: Body has already been consumed.");
    let copy: ReadableStream<Uint8Array> | null = null;
    if (this.#body) {
      // The prototype's tee: the instance's own marks the body used, and cloning does not.
      const [kept, other] = ReadableStream.prototype.tee.call(this.#body) as [
        ReadableStream<Uint8Array>,
        ReadableStream<Uint8Array>,
      ];
      this.#body = this.#watched(kept);
      copy = other;
      // Both copies now read through the web stream: the direct reader may no longer take it.
      this.#node = undefined;
    }
    return new LightResponse(copy, {
      status: this.status,
      statusText: this.statusText,
      headers: new LightHeaders(this.headers),
      url: this.url,
      redirected: this.redirected,
    });
  }

  /** The body for one full read; a second read is the standard class's TypeError. A null body reads as empty, any number of times. */
  #take(): ReadableStream<Uint8Array> | null {
    this.#makeWeb();
    if (this.#body === null) return null;
    if (this.#used || this.#body.locked) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    return this.#body;
  }

  #makeWeb(): void {
    if (!this.#node || this.#body !== null) return;
    // Marked used when the stream is first read or cancelled, as the standard class marks a
    // disturbed body (cheaper than wrapping the stream's methods, and this one is made per response).
    this.#body = this.#node.web(() => {
      this.#used = true;
    });
  }

  /**
   * The body's chunks read straight from the Node stream, for nyzhi's own event stream readers;
   * undefined when this response has no such body or it is already being read. Marks it used.
   */
  static directBody(response: Response): AsyncIterable<Uint8Array> | undefined {
    if (!(#node in response) || response.#used || response.#body?.locked) return undefined;
    const chunks = response.#node?.direct();
    if (chunks) response.#used = true;
    return chunks;
  }

  /**
   * The body, with `bodyUsed` set as soon as anything takes it over directly (a reader, an
   * iterator, a pipe, a tee, a cancel), close to how the standard class marks a disturbed body.
   * Unlike the standard class, taking a reader counts even if nothing is read with it.
   */
  #watched(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const stream = body as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of [
      "getReader",
      "values",
      "pipeTo",
      "pipeThrough",
      "tee",
      "cancel",
      Symbol.asyncIterator,
    ]) {
      const original = stream[method as string];
      if (typeof original !== "function") continue;
      Object.defineProperty(stream, method, {
        configurable: true,
        writable: true,
        value: (...args: unknown[]) => {
          this.#used = true;
          return original.apply(body, args);
        },
      });
    }
    return body;
  }
}
