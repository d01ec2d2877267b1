import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { resolveDirs } from "../paths/data-dirs.js";
import { getLogger, setLogger } from "./logger.js";

afterEach(() => setLogger(undefined));

describe("getLogger", () => {
  it("can flush synchronously right away, as pino does when the process exits", async () => {
    const home = await mkdtemp(join(tmpdir(), "nyzhi-logger-"));
    const logger = getLogger({ NYZHI_HOME: home, NYZHI_LOG: "info" });
    logger.info({ apiKey: "sk-secret" }, "first line");
    const destination = (logger as unknown as Record<symbol, { flushSync(): void }>)[pino.symbols.streamSym];
    // A destination still opening its file throws "sonic boom is not ready yet" here.
    expect(() => destination?.flushSync()).not.toThrow();
    const lines = (await readFile(join(resolveDirs({ NYZHI_HOME: home }).logs, "nyzhi.log"), "utf8"))
      .trim()
      .split("\n");
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { msg: "first line", apiKey: "[redacted]" },
    ]);
  });
});
