import type { WireApi } from "../types.js";

/** Which wire format a request speaks, read from its method and path. */
export interface Route {
  api: WireApi | "models" | "embeddings" | "unknown";
  /** Gemini carries the model in the path. */
  pathModel?: string;
  /** Gemini `:streamGenerateContent` streams; the others say so in the body. */
  pathStream?: boolean;
}

const GEMINI_PATH = /^\/(?:v1|v1beta|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/**
 * Routes by path. The `/v1` prefix is optional for the Anthropic and OpenAI paths, so clients whose
 * base URL is the server root or `<root>/v1` both work.
 */
export function routeRequest(method: string, pathname: string): Route {
  const path = pathname.replace(/\/+$/, "");
  if (method === "GET" && /^\/(?:v1|v1beta)?\/?models$/.test(path)) return { api: "models" };
  if (method !== "POST") return { api: "unknown" };
  const gemini = GEMINI_PATH.exec(path);
  if (gemini) {
    return {
      api: "gemini",
      pathModel: decodeURIComponent(gemini[1] ?? ""),
      pathStream: gemini[2] === "streamGenerateContent",
    };
  }
  const rest = path.replace(/^\/v1(?=\/)/, "");
  if (rest === "/messages") return { api: "anthropic" };
  if (rest === "/chat/completions") return { api: "openai-chat" };
  if (rest === "/responses") return { api: "openai-responses" };
  if (rest === "/embeddings") return { api: "embeddings" };
  return { api: "unknown" };
}
