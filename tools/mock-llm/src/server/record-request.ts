import type { IncomingMessage } from "node:http";
import type { NormalisedRequest } from "../request/normalise-request.js";
import type { Route } from "../request/route-request.js";
import type { RecordedRequest } from "../types.js";

/** The recorded form of a request as it arrives; `rule`, `status` and `endedAt` are filled in later. */
export function recordRequest(options: {
  index: number;
  req: IncomingMessage;
  url: URL;
  route: Route;
  body: unknown;
  normalised: NormalisedRequest;
  connection: number;
  startedAt: number;
}): RecordedRequest {
  const { req, url, normalised } = options;
  return {
    index: options.index,
    api: options.route.api,
    method: req.method ?? "GET",
    path: url.pathname + url.search,
    headers: flattenHeaders(req.headers),
    model: normalised.model,
    stream: normalised.stream,
    system: normalised.system,
    messages: normalised.messages,
    toolsOffered: normalised.toolsOffered,
    body: options.body,
    rule: undefined,
    status: undefined,
    startedAt: options.startedAt,
    connection: options.connection,
    endedAt: undefined,
  };
}

/** Reads the whole request body as UTF-8; a client that goes away mid-body gives what arrived. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

/** `null` for an empty body, `undefined` for text that is not JSON. */
export function parseJsonBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function flattenHeaders(headers: IncomingMessage["headers"]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return result;
}
