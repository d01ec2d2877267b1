import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Credential } from "../credentials/credential.js";
import type { CredentialStore } from "../store/credential-store.js";
import { createFileCredentialStore } from "../store/file-credential-store.js";
import { upsertAccount } from "./account-list.js";
import { AccountRotation } from "./account-rotation.js";

let directory: string;
let store: CredentialStore;
let time: number;
const now = () => time;

beforeEach(async () => {
  time = 1_700_000_000_000;
  directory = await mkdtemp(join(tmpdir(), "nyzhi-auth-rotation-"));
  store = createFileCredentialStore(join(directory, "auth.json"));
  await store.update("openai", (accounts) =>
    upsertAccount(accounts, "first", { type: "api-key", key: "key-one" }),
  );
  await store.update("openai", (accounts) =>
    upsertAccount(accounts, "second", { type: "api-key", key: "key-two" }),
  );
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const first: Credential = {
  type: "api-key",
  providerId: "openai",
  key: "key-one",
  source: "store",
  account: "first",
};
const second: Credential = {
  type: "api-key",
  providerId: "openai",
  key: "key-two",
  source: "store",
  account: "second",
};

describe("AccountRotation", () => {
  it("rotates to the second account on a 429 and back to the first after the default 60 s cooldown", async () => {
    const rotation = new AccountRotation({ store, now });
    expect(await rotation.current("openai")).toEqual(first);
    expect(await rotation.reportRateLimited("openai", "first")).toEqual(second);
    expect(await rotation.current("openai")).toEqual(second);
    time += 59_999;
    expect(await rotation.current("openai")).toEqual(second);
    time += 1;
    expect(await rotation.current("openai")).toEqual(first);
  });

  it("honours Retry-After and persists the cooldown for other processes", async () => {
    const rotation = new AccountRotation({ store, now });
    await rotation.reportRateLimited("openai", "first", 5_000);
    const accounts = await createFileCredentialStore(join(directory, "auth.json")).listAccounts("openai");
    expect(accounts.map((account) => [account.label, account.active, account.rateLimitedUntil])).toEqual([
      ["first", true, time + 5_000],
      ["second", false, undefined],
    ]);
    time += 5_000;
    expect(await rotation.current("openai")).toEqual(first);
  });

  it("returns undefined when every account cools down", async () => {
    const rotation = new AccountRotation({ store, now });
    await rotation.reportRateLimited("openai", "first");
    expect(await rotation.reportRateLimited("openai", "second")).toBeUndefined();
    expect(await rotation.current("openai")).toBeUndefined();
  });

  it("serves as the provider layer's onRateLimited hook", async () => {
    const rotation = new AccountRotation({ store, now });
    const { onRateLimited } = rotation;
    expect(await onRateLimited(first, 1_000)).toEqual(second);
    const fromEnv = { type: "api-key", providerId: "openai", key: "k", source: "env" } as const;
    expect(await onRateLimited(fromEnv)).toBeUndefined();
  });
});
