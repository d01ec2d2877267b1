/**
 * The WHATWG `Headers` class without Node's fetch implementation behind it. Node defines
 * `globalThis.Headers` lazily, and its first use loads all of undici (~20–30 ms here) — which the
 * SDKs trigger on every first request (`new Headers()`, `instanceof Headers`) even when their
 * `fetch` is nodeHttpFetch. The CLI bundle gives the SDK modules this class instead (esbuild
 * `inject`); nodeHttpFetch's responses carry it.
 *
 * Same behaviour as the standard class for everything but guards: names are validated and
 * lower-cased, values trimmed and validated, `get` joins repeated values with ", ", iteration is
 * sorted by name with each `set-cookie` value on its own, `getSetCookie` lists them. Not copied:
 * response headers are not made immutable, an iteration does not see headers added during it, and
 * the iterators are plain generators. `instanceof Headers` holds for these and for Node's own where
 * the name is injected; elsewhere (a library user's code) `instanceof` sees Node's class.
 */
export class LightHeaders implements Headers {
  /** Lower-cased name → values, in the order they were added. */
  readonly #values = new Map<string, string[]>();

  constructor(init?: ConstructorParameters<typeof Headers>[0] | LightHeaders) {
    if (init === undefined) return;
    if (typeof init !== "object" || init === null) {
      throw new TypeError("Headers: the init argument must be an object");
    }
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<Iterable<string>>) {
        if (typeof pair !== "object" || pair === null || !(Symbol.iterator in pair)) {
          throw new TypeError("Headers: each header must be a [name, value] pair");
        }
        const entry = [...pair];
        if (entry.length !== 2) throw new TypeError("Headers: each header must be a [name, value] pair");
        this.append(String(entry[0]), String(entry[1]));
      }
      return;
    }
    for (const name of Object.keys(init)) this.append(name, String((init as Record<string, string>)[name]));
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return Object.prototype.toString.call(value) === "[object Headers]";
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }

  append(name: string, value: string): void {
    const key = validName(name);
    const normalized = validValue(value);
    const values = this.#values.get(key);
    if (values) values.push(normalized);
    else this.#values.set(key, [normalized]);
  }

  set(name: string, value: string): void {
    this.#values.set(validName(name), [validValue(value)]);
  }

  delete(name: string): void {
    this.#values.delete(validName(name));
  }

  get(name: string): string | null {
    return this.#values.get(validName(name))?.join(", ") ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(validName(name));
  }

  getSetCookie(): string[] {
    return [...(this.#values.get("set-cookie") ?? [])];
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  entries(): ReturnType<Headers["entries"]> {
    return this.#pairs() as ReturnType<Headers["entries"]>;
  }

  keys(): ReturnType<Headers["keys"]> {
    return mapIterator(this.#pairs(), ([name]) => name) as ReturnType<Headers["keys"]>;
  }

  values(): ReturnType<Headers["values"]> {
    return mapIterator(this.#pairs(), ([, value]) => value) as ReturnType<Headers["values"]>;
  }

  [Symbol.iterator](): ReturnType<Headers["entries"]> {
    return this.entries();
  }

  *#pairs(): Generator<[string, string]> {
    for (const name of [...this.#values.keys()].sort(compareBytes)) {
      const values = this.#values.get(name);
      if (!values) continue;
      if (name === "set-cookie") for (const value of values) yield [name, value];
      else yield [name, values.join(", ")];
    }
  }
}

function* mapIterator<T, U>(source: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of source) yield map(item);
}

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HTTP_WHITESPACE_EDGES = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;

function validName(name: string): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Headers: invalid header name "${text}"`);
  return text.toLowerCase();
}

function validValue(value: string): string {
  const text = String(value).replace(HTTP_WHITESPACE_EDGES, "");
  if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError("Headers: invalid header value");
  // Header values are byte strings: anything beyond U+00FF is refused, as undici does.
  for (let index = 0; index < text.length; index += 1) {
    if (text.charCodeAt(index) > 0xff) throw new TypeError("Headers: invalid header value");
  }
  return text;
}

/** Names are lower-case ASCII tokens: code-unit order is byte order. */
function compareBytes(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
