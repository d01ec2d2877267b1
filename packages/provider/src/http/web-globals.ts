import { LightHeaders } from "./light-headers.js";
import { webGlobalStub } from "./web-global-stub.js";

/**
 * Stand-ins for Node's lazily loaded fetch globals, for a bundle to inject in place of the globals
 * (esbuild `inject`; the `nyz` CLI bundle does): `Headers` is LightHeaders, the others answer
 * `instanceof` without loading undici and forward everything else to the real global. With them, a
 * session whose HTTP goes through nodeHttpFetch never loads undici (~20–30 ms of start-up).
 * Exported as `@nyzhi/provider/web-globals`; this module imports nothing else, so injecting it
 * creates no import cycle.
 */
export { LightHeaders as Headers };
export const FormData: typeof globalThis.FormData = webGlobalStub("FormData");
export const Request: typeof globalThis.Request = webGlobalStub("Request");
export const Response: typeof globalThis.Response = webGlobalStub("Response");
