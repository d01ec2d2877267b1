import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthError } from "../errors/auth-errors.js";

export interface LoopbackCallbackOptions {
  /** 0 picks a free port. */
  port: number;
  callbackPath: string;
  expectedState: string;
  /** In ms. */
  timeoutMs: number;
}

export interface LoopbackCallbackServer {
  /** The port actually bound on 127.0.0.1. */
  port: number;
  /** Resolves the authorization code; rejects on timeout, state mismatch or an `error` callback. */
  code: Promise<string>;
  close(): void;
}

function answer(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "Content-Type": "text/html; charset=utf-8", Connection: "close" });
  response.end(`<!doctype html><meta charset="utf-8"><title>nyzhi</title><p>${text}</p>`);
}

/**
 * Listens on 127.0.0.1 for the OAuth redirect. Requests to other paths get 404 and the server
 * keeps waiting (browsers ask for /favicon.ico). The query is URL-decoded. A wrong `state` ends
 * the login, since it means the redirect did not come from this login attempt.
 */
export async function startLoopbackCallbackServer(
  options: LoopbackCallbackOptions,
): Promise<LoopbackCallbackServer> {
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // The caller may await `code` only after opening the browser; an early rejection is not unhandled.
  code.catch(() => undefined);
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "GET" || url.pathname !== options.callbackPath) {
      answer(response, 404, "Not found.");
      return;
    }
    const error = url.searchParams.get("error");
    const state = url.searchParams.get("state");
    const authorizationCode = url.searchParams.get("code");
    if (error) {
      answer(response, 400, "Login failed. You can close this window.");
      finish(new OAuthError("auth_oauth_failed", `The authorization server refused the login: ${error}`));
    } else if (state !== options.expectedState) {
      answer(response, 400, "Login failed: the state parameter does not match. You can close this window.");
      finish(
        new OAuthError(
          "auth_oauth_state_mismatch",
          "OAuth callback rejected: its state parameter does not match this login attempt. Run the login again.",
        ),
      );
    } else if (!authorizationCode) {
      answer(response, 400, "Login failed: no authorization code. You can close this window.");
      finish(new OAuthError("auth_oauth_failed", "OAuth callback had no authorization code."));
    } else {
      answer(response, 200, "Login complete. You can close this window and return to nyzhi.");
      finish(undefined, authorizationCode);
    }
  });
  const timer = setTimeout(() => {
    finish(
      new OAuthError(
        "auth_oauth_timeout",
        `Timed out after ${Math.round(options.timeoutMs / 1000)} s waiting for the browser login to finish.`,
      ),
    );
  }, options.timeoutMs);
  let finished = false;
  function finish(error: Error | undefined, value?: string): void {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    if (error) settle?.reject(error);
    else if (value !== undefined) settle?.resolve(value);
    settle = undefined;
    server.close();
    server.closeIdleConnections();
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => {
      clearTimeout(timer);
      reject(
        new OAuthError("auth_oauth_failed", `Cannot listen on 127.0.0.1:${options.port}: ${error.message}`),
      );
    });
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    code,
    close: () => finish(new OAuthError("auth_oauth_failed", "Login cancelled.")),
  };
}
