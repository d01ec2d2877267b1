import { StringDecoder } from "node:string_decoder";

/**
 * UTF-8 bytes to text across chunk boundaries, as `new TextDecoder("utf-8")` with `{ stream: true }`
 * decodes them (a leading byte-order mark dropped, invalid bytes as U+FFFD), without ICU: every
 * model response gets its own decoder, and opening an ICU converter cost ~80 µs per response,
 * more than decoding the response itself.
 */
export class Utf8StreamDecoder {
  readonly #decoder = new StringDecoder("utf8");
  #started = false;

  /** The text of `bytes`, holding back a character cut at the end until the next chunk. */
  write(bytes: Uint8Array): string {
    return this.#first(this.#decoder.write(bytes as Buffer));
  }

  /** Whatever is held back (an incomplete character becomes U+FFFD). */
  end(): string {
    return this.#first(this.#decoder.end());
  }

  #first(text: string): string {
    if (this.#started || text === "") return text;
    this.#started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}
