import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getLogger, setLogger } from "../base/logger.js";
import {
  forgetKnownSecrets,
  pendingSecretPrefixLength,
  redactKnownSecrets,
  registerEnvironmentSecrets,
  registerSecret,
} from "./known-secrets.js";

const KEY = "sk-ant-PLANTED-0123456789";

afterEach(() => {
  forgetKnownSecrets();
});

describe("known secrets", () => {
  it("replaces every occurrence of a registered secret", () => {
    registerSecret(KEY);
    expect(redactKnownSecrets(`401: invalid x-api-key ${KEY} (key ${KEY})`)).toBe(
      "401: invalid x-api-key [redacted] (key [redacted])",
    );
  });

  it("ignores blank and short values (they would redact ordinary words)", () => {
    registerSecret("");
    registerSecret(undefined);
    registerSecret("abc1234");
    expect(redactKnownSecrets("abc1234 stays")).toBe("abc1234 stays");
  });

  it("also replaces the secret's JSON-escaped and percent-encoded spellings", () => {
    const odd = 'key"with\\quote/slash';
    registerSecret(odd);
    expect(redactKnownSecrets(JSON.stringify({ message: `bad ${odd}` }))).toBe(
      '{"message":"bad [redacted]"}',
    );
    expect(redactKnownSecrets(`https://x.test/?key=${encodeURIComponent(odd)}`)).toBe(
      "https://x.test/?key=[redacted]",
    );
  });

  it("replaces the longer of two overlapping secrets whole", () => {
    registerSecret("token-abcdefgh");
    registerSecret("token-abcdefgh-and-more");
    expect(redactKnownSecrets("x token-abcdefgh-and-more y")).toBe("x [redacted] y");
  });

  it("knows how much of a text's tail could be the start of a secret", () => {
    registerSecret(KEY);
    expect(pendingSecretPrefixLength("the key is sk-ant-PL")).toBe("sk-ant-PL".length);
    expect(pendingSecretPrefixLength("the key is s")).toBe(1);
    expect(pendingSecretPrefixLength("nothing here")).toBe(0);
    expect(pendingSecretPrefixLength(`whole ${KEY}`)).toBe(0);
  });

  it("registers credential variables of the environment only", () => {
    registerEnvironmentSecrets({
      ANTHROPIC_API_KEY: "anthropic-key-123",
      GITHUB_TOKEN: "ghp_tokenvalue",
      DB_PASSWORD: "hunter2hunter2",
      HOME: "/home/someone",
      NYZHI_MAX_TOKENS: "100000000",
    });
    expect(
      redactKnownSecrets("anthropic-key-123 ghp_tokenvalue hunter2hunter2 /home/someone 100000000"),
    ).toBe("[redacted] [redacted] [redacted] /home/someone 100000000");
  });
});

describe("the log file", () => {
  it("never holds a registered secret, wherever it appears in a line", async () => {
    const home = await mkdtemp(join(tmpdir(), "nyzhi-secrets-"));
    try {
      registerSecret(KEY);
      setLogger(undefined);
      const logger = getLogger({ NYZHI_HOME: home, NYZHI_LOG: "info" });
      logger.error(
        { err: new Error(`provider said: invalid key ${KEY}`), detail: { body: KEY } },
        `failed ${KEY}`,
      );
      logger.flush();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const log = await readFile(join(home, "data", "logs", "nyzhi.log"), "utf8");
      expect(log).toContain("provider said: invalid key [redacted]");
      expect(log).not.toContain(KEY);
    } finally {
      setLogger(undefined);
      await rm(home, { recursive: true, force: true });
    }
  });
});
