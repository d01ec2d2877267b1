import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeAuthorizationServer,
  startFakeAuthorizationServer,
} from "./__fixtures__/fake-authorization-server.js";
import { runDeviceCodeFlow } from "./device-code-flow.js";

let fake: FakeAuthorizationServer;

afterEach(async () => {
  await fake.close();
});

describe("runDeviceCodeFlow", () => {
  it("polls through authorization_pending and slow_down, then exchanges for a Copilot token", async () => {
    fake = await startFakeAuthorizationServer({
      devicePolls: ["authorization_pending", "slow_down", "authorization_pending", "success"],
      deviceInterval: 1,
    });
    const waits: number[] = [];
    const printed: string[] = [];
    const tokens = await runDeviceCodeFlow(fake.deviceCodeProvider(), {
      io: { print: (line) => printed.push(line) },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(tokens).toEqual({
      accessToken: "copilot-1",
      refreshToken: "gh-token",
      expiresAt: 2_000_000_000_000,
    });
    expect(waits).toEqual([1_000, 1_000, 6_000, 6_000]);
    expect(printed).toEqual(["Open https://github.com/login/device and enter the code ABCD-1234"]);
    const polls = fake.requests.filter((request) => request.path === "/device/token");
    expect(polls[0]?.params).toEqual({
      client_id: "test-device-client",
      device_code: "device-123",
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
    });
    expect(fake.requests.find((request) => request.path === "/copilot/token")?.authorization).toBe(
      "token gh-token",
    );
  });

  it("fails with a clear message when the code expires", async () => {
    fake = await startFakeAuthorizationServer({ devicePolls: ["authorization_pending", "expired_token"] });
    await expect(
      runDeviceCodeFlow(fake.deviceCodeProvider(), {
        io: { print: () => undefined },
        sleep: async () => undefined,
      }),
    ).rejects.toMatchObject({
      code: "auth_oauth_timeout",
      message: expect.stringContaining("nyz login github-copilot"),
    });
  });

  it("fails when the user denies access", async () => {
    fake = await startFakeAuthorizationServer({ devicePolls: ["access_denied"] });
    await expect(
      runDeviceCodeFlow(fake.deviceCodeProvider(), {
        io: { print: () => undefined },
        sleep: async () => undefined,
      }),
    ).rejects.toMatchObject({ code: "auth_oauth_failed" });
  });
});
