import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { exitWhenIdle, type IdleProbe, onlyStdioLeft } from "./exit-when-idle.js";

afterEach(() => {
  process.exitCode = undefined;
});

const tick = () => new Promise((resolve) => setImmediate(resolve));
const stdout = { fd: 1 };
const probe = (over: Partial<IdleProbe> = {}): IdleProbe => ({
  exit: () => {},
  resources: () => ["PipeWrap"],
  handles: () => [stdout],
  requests: () => [],
  ...over,
});

describe("onlyStdioLeft", () => {
  it("accepts the process's own stdio streams only", () => {
    expect(onlyStdioLeft(probe())).toBe(true);
    expect(onlyStdioLeft(probe({ resources: () => [], handles: () => [] }))).toBe(true);
    expect(onlyStdioLeft(probe({ handles: () => [{ _handle: { fd: 2 } }, { fd: 0 }] }))).toBe(true);
    for (const busy of ["Timeout", "TCPSocketWrap", "ProcessWrap", "FSReqPromise"])
      expect(onlyStdioLeft(probe({ resources: () => ["PipeWrap", busy] }))).toBe(false);
    // A child process's pipe is a PipeWrap too, but not fd 0–2.
    expect(onlyStdioLeft(probe({ handles: () => [stdout, { _handle: { fd: 19 } }] }))).toBe(false);
    expect(onlyStdioLeft(probe({ requests: () => [{}] }))).toBe(false);
  });

  it("sees a running child process in this very process", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 300)"], { stdio: "pipe" });
    await new Promise((resolve) => child.once("spawn", resolve));
    const real: Omit<IdleProbe, "exit"> = {
      resources: () => process.getActiveResourcesInfo(),
      handles: () => (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles(),
      requests: () => (process as unknown as { _getActiveRequests(): unknown[] })._getActiveRequests(),
    };
    expect(onlyStdioLeft(real)).toBe(false);
    child.kill();
    await new Promise((resolve) => child.once("close", resolve));
  });
});

describe("exitWhenIdle", () => {
  it("sets the exit code, then exits once only stdio is left", async () => {
    const exits: number[] = [];
    exitWhenIdle(3, probe({ exit: (code) => exits.push(code) }));
    expect(process.exitCode).toBe(3);
    expect(exits).toEqual([]);
    await tick();
    expect(exits).toEqual([3]);
  });

  it("leaves the ordinary exit to pending work", async () => {
    const exits: number[] = [];
    exitWhenIdle(0, probe({ exit: (code) => exits.push(code), requests: () => [{}] }));
    await tick();
    expect(exits).toEqual([]);
    expect(process.exitCode).toBe(0);
  });

  it("lets promise callbacks queued by the command run before it decides", async () => {
    const order: string[] = [];
    exitWhenIdle(0, probe({ exit: () => order.push("exit") }));
    void Promise.resolve().then(() => order.push("callback"));
    await tick();
    expect(order).toEqual(["callback", "exit"]);
  });
});
