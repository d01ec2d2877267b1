import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Logger, setLogger } from "@nyzhi/config";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AccountRotation } from "../accounts/account-rotation.js";
import {
  actAsBrowser,
  startFakeAuthorizationServer,
} from "../oauth/__fixtures__/fake-authorization-server.js";
import { ensureFresh } from "../oauth/ensure-fresh.js";
import { createFileCredentialStore } from "../store/file-credential-store.js";
import { login } from "./login.js";

const API_KEY = "sk-ant-very-secret-api-key-1234";
let directory: string;
let logged: string[];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "nyzhi-auth-logs-"));
  logged = [];
  const capture = (...args: unknown[]) => {
    logged.push(JSON.stringify(args));
  };
  // Only the methods auth calls; a cast keeps the test free of a pino dependency.
  setLogger({ info: capture, warn: capture, debug: capture, error: capture } as unknown as Logger);
});

afterEach(async () => {
  setLogger(undefined);
  await rm(directory, { recursive: true, force: true });
});

describe("secrets in logs", () => {
  it("never logs keys or tokens across login, OAuth failure, rotation and refresh", async () => {
    const store = createFileCredentialStore(join(directory, "auth.json"));
    const fake = await startFakeAuthorizationServer({ forgedState: "x" });
    const printed: string[] = [];
    try {
      await login({
        providerId: "anthropic",
        io: { print: (line) => printed.push(line), prompt: async () => API_KEY, openUrl: actAsBrowser },
        store,
        env: {},
        oauthProviders: { anthropic: fake.authorizationCodeProvider({ providerId: "anthropic" }) },
      });
      await login({
        providerId: "anthropic",
        io: { print: (line) => printed.push(line), prompt: async () => `${API_KEY}-2` },
        store,
        env: {},
        method: "api-key",
        label: "second",
      });
      const rotation = new AccountRotation({ store });
      const current = await rotation.current("anthropic");
      expect(await rotation.onRateLimited(current!, 1_000)).toMatchObject({ account: "second" });
      await ensureFresh(
        {
          type: "oauth",
          providerId: "openai",
          accessToken: "access-token-secret",
          refreshToken: "refresh-secret",
          expiresAt: 0,
          source: "store",
          account: "default",
        },
        { providers: { openai: fake.authorizationCodeProvider() } },
      ).catch(() => undefined);
    } finally {
      await fake.close();
    }
    expect(logged.length).toBeGreaterThan(1);
    for (const text of [...logged, ...printed]) {
      for (const secret of [API_KEY, "access-token-secret", "refresh-secret", "code-1"]) {
        expect(text).not.toContain(secret);
      }
    }
  });
});
