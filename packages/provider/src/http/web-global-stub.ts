/**
 * A stand-in for one of Node's lazily loaded fetch globals (`FormData`, `Request`, `Response`),
 * for code that only tests `instanceof` on the hot path: the test is answered from the object's
 * `Symbol.toStringTag` without touching the global, whose first use loads all of undici; anything
 * else — `new`, static methods — goes to the real global, loading it then. The CLI bundle
 * substitutes these for the globals (esbuild `inject`), next to LightHeaders.
 */
export function webGlobalStub<Name extends "FormData" | "Request" | "Response">(
  name: Name,
): (typeof globalThis)[Name] {
  const real = () => globalThis[name] as unknown as new (...args: unknown[]) => object;
  const hasInstance = (value: unknown) => Object.prototype.toString.call(value) === `[object ${name}]`;
  const stub: object = new Proxy(function stub() {}, {
    // A subclass (`class S extends Response`) is constructed as a subclass of the real class.
    construct: (_target, args, newTarget) =>
      Reflect.construct(real(), args, newTarget === stub ? real() : newTarget),
    apply: (_target, thisArg, args) => Reflect.apply(real(), thisArg, args),
    get: (_target, property) =>
      property === Symbol.hasInstance ? hasInstance : Reflect.get(real(), property),
    has: (_target, property) => property === Symbol.hasInstance || Reflect.has(real(), property),
  });
  return stub as unknown as (typeof globalThis)[Name];
}
