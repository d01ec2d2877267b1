import { afterEach, describe, expect, it } from "vitest";
import { exitWhenIdle, onlyStdioLeft } from "./exit-when-idle.js";

afterEach(() => {
  process.exitCode = undefined;
});

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("onlyStdioLeft", () => {
  it("accepts stdio pipes and terminals only", () => {
    expect(onlyStdioLeft([])).toBe(true);
    expect(onlyStdioLeft(["PipeWrap", "TTYWrap"])).toBe(true);
    for (const busy of ["WriteWrap", "Timeout", "TCPSocketWrap", "ProcessWrap", "FSReqCallback"])
      expect(onlyStdioLeft(["PipeWrap", busy])).toBe(false);
  });
});

describe("exitWhenIdle", () => {
  it("sets the exit code, then exits once only stdio is left", async () => {
    const exits: number[] = [];
    exitWhenIdle(3, { exit: (code) => exits.push(code), activeResources: () => ["PipeWrap"] });
    expect(process.exitCode).toBe(3);
    expect(exits).toEqual([]);
    await tick();
    expect(exits).toEqual([3]);
  });

  it("leaves the ordinary exit to pending work (a write in flight, a timer, a child)", async () => {
    const exits: number[] = [];
    exitWhenIdle(0, { exit: (code) => exits.push(code), activeResources: () => ["PipeWrap", "WriteWrap"] });
    await tick();
    expect(exits).toEqual([]);
    expect(process.exitCode).toBe(0);
  });

  it("lets promise callbacks queued by the command run before it decides", async () => {
    const order: string[] = [];
    exitWhenIdle(0, { exit: () => order.push("exit"), activeResources: () => [] });
    void Promise.resolve().then(() => order.push("callback"));
    await tick();
    expect(order).toEqual(["callback", "exit"]);
  });
});
