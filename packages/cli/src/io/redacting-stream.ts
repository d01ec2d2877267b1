import { redactKnownSecrets } from "@nyzhi/config";

/**
 * `stream` with every known credential (see `registerSecret`) replaced by `[redacted]` in the text
 * written to it: the app's terminal output, where a model or a tool may repeat a key. ink writes
 * whole frames (the live region is redrawn in full each time), so a key streamed in pieces is whole
 * by the time it is written. A Proxy, not a copy: ink reads `columns`, `rows`, `isTTY` and listens
 * for `resize` on the real stream.
 */
export function redactingStream<T extends NodeJS.WritableStream>(stream: T): T {
  const write = (chunk: unknown, ...rest: unknown[]): boolean =>
    (stream.write as (...args: unknown[]) => boolean).call(
      stream,
      typeof chunk === "string" ? redactKnownSecrets(chunk) : chunk,
      ...rest,
    );
  return new Proxy(stream, {
    get(target, key) {
      if (key === "write") return write;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
