import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { forgetKnownSecrets } from "@nyzhi/config";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../main.js";
import type { CommandIo } from "./output.js";
import { redactedIo } from "./redacted-io.js";

afterEach(() => {
  forgetKnownSecrets();
});

function capture(env: Record<string, string>): { io: CommandIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { env, cwd: "/", stdout: (text) => out.push(text), stderr: (text) => err.push(text) },
    out,
    err,
  };
}

describe("redactedIo", () => {
  it("hides the environment's credentials in everything written", () => {
    const { io, out, err } = capture({ OPENAI_API_KEY: "sk-openai-PLANTED-42", HOME: "/home/u" });
    const redacted = redactedIo(io);
    redacted.stdout("key sk-openai-PLANTED-42 home /home/u\n");
    redacted.stderr("Error: 401 sk-openai-PLANTED-42\n");
    expect([out, err]).toEqual([["key [redacted] home /home/u\n"], ["Error: 401 [redacted]\n"]]);
  });

  it("keeps stdin lazy: it is read only when a command asks for it", () => {
    let reads = 0;
    const { io } = capture({});
    Object.defineProperty(io, "stdin", {
      get() {
        reads++;
        return undefined;
      },
      enumerable: true,
    });
    const redacted = redactedIo(io);
    expect(reads).toBe(0);
    void redacted.stdin;
    expect(reads).toBe(1);
  });

  it("is what main writes through: a configured key is shown nowhere, even by `config get`", async () => {
    const home = await mkdtemp(join(tmpdir(), "nyzhi-redacted-io-"));
    try {
      const key = "sk-config-PLANTED-0123";
      await mkdir(join(home, "config"), { recursive: true });
      await writeFile(join(home, "config", "config.toml"), `[provider.anthropic]\napi_key = "${key}"\n`);
      const { io, out } = capture({ NYZHI_HOME: home, NYZHI_LOG: "silent" });
      io.cwd = home;
      expect(await main(["config", "get", "provider.anthropic.api_key"], io)).toBe(0);
      expect(await main(["config", "--json"], io)).toBe(0);
      const printed = out.join("");
      expect(printed).not.toContain(key);
      expect(printed.startsWith("[redacted]\n")).toBe(true);
      expect(JSON.parse(printed.slice("[redacted]\n".length)).provider.anthropic.api_key).toBe("[redacted]");
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
