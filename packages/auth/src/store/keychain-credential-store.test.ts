import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findCredentialsAsync } from "@napi-rs/keyring";
import { describe, expect, it } from "vitest";
import { upsertAccount } from "../accounts/account-list.js";
import { logout } from "../commands/logout.js";
import { resolveCredential } from "../credentials/resolve-credential.js";
import { createKeychainCredentialStore } from "./keychain-credential-store.js";
import { openCredentialStore } from "./open-credential-store.js";

/**
 * The keychain is tested for real: `@napi-rs/keyring` against gnome-keyring over D-Bus.
 * Without a session bus, the outer test re-runs this file under `scripts/with-keyring.sh`
 * (a private dbus-run-session with an unlocked gnome-keyring and a temporary HOME) and asserts on
 * vitest's JSON report. Inside that session (`NYZHI_IN_KEYRING_SESSION=1`) the store tests run.
 */
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const thisFile = fileURLToPath(import.meta.url);
const insideSession = process.env.NYZHI_IN_KEYRING_SESSION === "1";
/** The README promises these tests "when present": without both tools they skip, saying why. */
const missingTools = ["dbus-run-session", "gnome-keyring-daemon"].filter(
  (tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0,
);
const skipReason = missingTools.length > 0 ? `${missingTools.join(" and ")} not installed` : undefined;
if (skipReason && !insideSession) {
  console.warn(`keychain store tests skipped: ${skipReason} (packages dbus and gnome-keyring provide them)`);
}
const INNER_TESTS = 4;

describe.runIf(insideSession)("keychain credential store (inside a D-Bus session)", () => {
  const service = `nyzhi-test-${randomBytes(4).toString("hex")}`;

  it("keeps every account when two stores (two processes) update the index at once", async () => {
    const lockPath = join(await mkdtemp(join(tmpdir(), "nyzhi-keychain-lock-")), "keychain.lock");
    const concurrentService = `${service}-race`;
    const stores = Array.from({ length: 4 }, () =>
      createKeychainCredentialStore({ service: concurrentService, lockPath }),
    );
    await Promise.all(
      stores.map((store, index) =>
        store.update("groq", (accounts) =>
          upsertAccount(accounts, `acct${index}`, { type: "api-key", key: `gsk-${index}` }),
        ),
      ),
    );
    const labels = (await stores[0]!.listAccounts("groq")).map((account) => account.label).sort();
    expect(labels).toEqual(["acct0", "acct1", "acct2", "acct3"]);
    await stores[0]!.update("groq", () => []);
  });

  it("stores, lists, reads and deletes accounts as <provider>:<label> entries", async () => {
    const store = createKeychainCredentialStore({ service });
    await store.update("openai", (accounts) =>
      upsertAccount(accounts, "work", { type: "api-key", key: "sk-work-1234" }),
    );
    await store.update("openai", (accounts) =>
      upsertAccount(accounts, "home", { type: "oauth", accessToken: "at", refreshToken: "rt", expiresAt: 5 }),
    );
    const names = (await findCredentialsAsync(service)).map((entry) => entry.account).sort();
    expect(names).toEqual(["__index__", "openai:home", "openai:work"]);
    const index = (await findCredentialsAsync(service)).find((entry) => entry.account === "__index__");
    expect(index?.password).not.toContain("sk-work-1234");

    const reopened = createKeychainCredentialStore({ service });
    expect(await reopened.listProviders()).toEqual(["openai"]);
    expect(await reopened.listAccounts("openai")).toEqual([
      { label: "work", secret: { type: "api-key", key: "sk-work-1234" }, active: true },
      {
        label: "home",
        secret: { type: "oauth", accessToken: "at", refreshToken: "rt", expiresAt: 5 },
        active: false,
      },
    ]);
    expect(await resolveCredential("openai", { env: {}, store: reopened })).toEqual({
      type: "api-key",
      providerId: "openai",
      key: "sk-work-1234",
      source: "store",
      account: "work",
    });

    expect(await logout({ providerId: "openai", account: "work", store: reopened })).toEqual({
      providerId: "openai",
      removed: ["work"],
    });
    expect((await reopened.listAccounts("openai")).map((account) => [account.label, account.active])).toEqual(
      [["home", true]],
    );
    expect(await logout({ providerId: "openai", store: reopened })).toEqual({
      providerId: "openai",
      removed: ["home"],
    });
    expect((await findCredentialsAsync(service)).map((entry) => entry.account)).toEqual(["__index__"]);
    expect(await reopened.listProviders()).toEqual([]);
  });

  it("is picked by openCredentialStore when the Secret Service answers", async () => {
    const opened = await openCredentialStore({ env: { NYZHI_HOME: "/nonexistent" }, keychain: { service } });
    expect(opened.kind).toBe("keychain");
    expect(opened.store.location).toBe(`OS keychain (service ${service})`);
  });

  it("honours prefer: file even when the keychain answers", async () => {
    const opened = await openCredentialStore({ env: { NYZHI_HOME: "/nonexistent" }, prefer: "file" });
    expect(opened.kind).toBe("file");
  });
});

describe.runIf(!insideSession)("keychain credential store", () => {
  it.skipIf(skipReason !== undefined)(
    `runs for real under dbus-run-session + gnome-keyring${skipReason ? ` (skipped: ${skipReason})` : ""}`,
    () => {
      const child = spawnSync(
        join(repoRoot, "scripts/with-keyring.sh"),
        [
          process.execPath,
          join(repoRoot, "node_modules/vitest/vitest.mjs"),
          "run",
          thisFile,
          "--reporter=json",
        ],
        { cwd: repoRoot, encoding: "utf8", env: { ...process.env, NYZHI_LOG: "silent" }, timeout: 60_000 },
      );
      const output = child.stdout ?? "";
      expect(output.includes("{"), `no JSON report; stderr:\n${child.stderr}`).toBe(true);
      const report = JSON.parse(output.slice(output.indexOf("{"))) as {
        numPassedTests: number;
        numFailedTests: number;
        testResults: {
          assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
        }[];
      };
      const failures = report.testResults.flatMap((file) =>
        file.assertionResults.filter((result) => result.status === "failed"),
      );
      expect(failures).toEqual([]);
      expect(report.numPassedTests).toBe(INNER_TESTS);
    },
    90_000,
  );

  it.runIf(!process.env.DBUS_SESSION_BUS_ADDRESS && process.platform === "linux")(
    "falls back to auth.json when no session bus answers",
    async () => {
      const home = await mkdtemp(join(tmpdir(), "nyzhi-auth-fallback-"));
      try {
        const opened = await openCredentialStore({ env: { NYZHI_HOME: home } });
        expect(opened.kind).toBe("file");
        expect(opened.store.location).toBe(join(home, "data", "auth.json"));
        expect(opened.fallbackReason).toMatch(/keychain probe/);
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    },
  );
});
