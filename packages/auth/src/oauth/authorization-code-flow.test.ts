import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OAuthError } from "../errors/auth-errors.js";
import {
  actAsBrowser,
  type FakeAuthorizationServer,
  startFakeAuthorizationServer,
} from "./__fixtures__/fake-authorization-server.js";
import { runAuthorizationCodeFlow } from "./authorization-code-flow.js";
import { startLoopbackCallbackServer } from "./loopback-callback-server.js";
import { pkceChallenge } from "./pkce.js";
import { exchangeAuthorizationCode } from "./token-requests.js";

let fake: FakeAuthorizationServer;
let printed: string[];

beforeEach(async () => {
  printed = [];
});

afterEach(async () => {
  await fake.close();
});

const io = (openUrl: (url: string) => Promise<void> | void) => ({
  print: (line: string) => printed.push(line),
  openUrl,
});

describe("runAuthorizationCodeFlow", () => {
  it("a cancel (the app quits, /login cancel) closes the callback server at once and fails as cancelled", async () => {
    fake = await startFakeAuthorizationServer();
    const abort = new AbortController();
    let opened = "";
    const flow = runAuthorizationCodeFlow(fake.authorizationCodeProvider({ timeoutMs: 60_000 }), {
      io: io((url) => {
        opened = url;
        abort.abort();
      }),
      signal: abort.signal,
    });
    await expect(flow).rejects.toThrow("Login cancelled.");
    // The callback is gone: the browser coming back afterwards reaches nothing.
    const redirect = new URL(opened).searchParams.get("redirect_uri") ?? "";
    await expect(fetch(redirect)).rejects.toThrow();
  });

  it("authorizes with PKCE S256 over a loopback callback and exchanges the code", async () => {
    fake = await startFakeAuthorizationServer();
    const provider = fake.authorizationCodeProvider({ extraAuthorizeParams: { originator: "codex_cli_rs" } });
    const tokens = await runAuthorizationCodeFlow(provider, { io: io(actAsBrowser), now: () => 1_000 });
    expect(tokens).toEqual({
      accessToken: "access-1",
      refreshToken: "refresh-1",
      expiresAt: 1_000 + 3_600_000,
    });

    const authorize = fake.requests.find((request) => request.path === "/authorize")!;
    expect(authorize.params).toMatchObject({
      response_type: "code",
      client_id: "test-client",
      scope: "openid offline_access",
      code_challenge_method: "S256",
      originator: "codex_cli_rs",
    });
    expect(authorize.params.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\/callback$/);
    expect(authorize.params.state).toMatch(/^[\w-]{22}$/);
    const token = fake.requests.find((request) => request.path === "/token")!;
    expect(token.params).toMatchObject({
      grant_type: "authorization_code",
      code: "code-1",
      client_id: "test-client",
    });
    expect(pkceChallenge(token.params.code_verifier!)).toBe(authorize.params.code_challenge);
    expect(printed[1]).toContain(`${fake.base}/authorize?`);
    expect(printed.join("\n")).not.toContain("access-1");
  });

  it("rejects a callback whose state does not match, without exchanging the code", async () => {
    fake = await startFakeAuthorizationServer({ forgedState: "forged" });
    const error = await runAuthorizationCodeFlow(fake.authorizationCodeProvider(), {
      io: io(actAsBrowser),
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ code: "auth_oauth_state_mismatch" });
    expect(fake.requests.some((request) => request.path === "/token")).toBe(false);
  });

  it("times out when the browser never comes back", async () => {
    fake = await startFakeAuthorizationServer();
    const provider = fake.authorizationCodeProvider({ timeoutMs: 150 });
    await expect(runAuthorizationCodeFlow(provider, { io: io(() => undefined) })).rejects.toMatchObject({
      code: "auth_oauth_timeout",
    });
  });

  it("keeps working when opening the browser throws", async () => {
    fake = await startFakeAuthorizationServer();
    const flow = runAuthorizationCodeFlow(fake.authorizationCodeProvider(), {
      io: io((url) => {
        setTimeout(() => void actAsBrowser(url), 10);
        throw new Error("no browser");
      }),
    });
    await expect(flow).resolves.toMatchObject({ accessToken: "access-1" });
  });

  it("has the token endpoint refuse a wrong PKCE verifier, without leaking the code", async () => {
    fake = await startFakeAuthorizationServer();
    const provider = fake.authorizationCodeProvider();
    await fetch(
      `${fake.base}/authorize?code_challenge=${pkceChallenge("right")}&redirect_uri=http://127.0.0.1:1/cb&state=s`,
      {
        redirect: "manual",
      },
    );
    const error = await exchangeAuthorizationCode(provider, {
      code: "code-1",
      verifier: "wrong",
      redirectUri: "http://127.0.0.1:1/cb",
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "auth_oauth_failed" });
    expect((error as Error).message).toBe(
      "openai token exchange failed: invalid_grant: PKCE verification failed.",
    );
  });
});

describe("loopback callback server", () => {
  it("answers 404 to other paths and keeps waiting", async () => {
    fake = await startFakeAuthorizationServer();
    const server = await startLoopbackCallbackServer({
      port: 0,
      callbackPath: "/cb",
      expectedState: "s1",
      timeoutMs: 5_000,
    });
    expect((await fetch(`http://127.0.0.1:${server.port}/favicon.ico`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.port}/cb?code=a%2Fb&state=s1`)).status).toBe(200);
    expect(await server.code).toBe("a/b");
  });

  it("reports an error callback", async () => {
    fake = await startFakeAuthorizationServer();
    const server = await startLoopbackCallbackServer({
      port: 0,
      callbackPath: "/cb",
      expectedState: "s",
      timeoutMs: 5_000,
    });
    const code = server.code.catch((caught: unknown) => caught);
    await fetch(`http://127.0.0.1:${server.port}/cb?error=access_denied&state=s`);
    expect(await code).toMatchObject({
      code: "auth_oauth_failed",
      message: expect.stringContaining("access_denied"),
    });
  });
});
