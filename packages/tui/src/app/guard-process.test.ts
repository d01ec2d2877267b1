import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { guardProcess, type ProcessGuard } from "./guard-process.js";

class FakeStream extends EventEmitter {
  isTTY = true;
  written: string[] = [];
  rawMode: boolean[] = [];
  write = (data: string) => {
    this.written.push(data);
    return true;
  };
  setRawMode = (mode: boolean) => {
    this.rawMode.push(mode);
    return this;
  };
}

/** The listener the guard added last for `event` (the process's own are left alone). */
function lastListener(event: string): (...args: unknown[]) => void {
  return process.listeners(event as "SIGTERM").at(-1) as (...args: unknown[]) => void;
}

let guard: ProcessGuard | undefined;
afterEach(() => {
  guard?.release();
  guard = undefined;
});

function setup() {
  const stdin = new FakeStream();
  const stdout = new FakeStream();
  const stderr = new FakeStream();
  const calls = { signal: vi.fn(), hangup: vi.fn(), crash: vi.fn() };
  guard = guardProcess({
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    onSignal: calls.signal,
    onHangup: calls.hangup,
    onCrash: calls.crash,
  });
  return { stdin, stdout, stderr, calls, guard };
}

describe("guardProcess", () => {
  it("turns bracketed paste on, and restores the terminal: raw mode off, paste off, cursor shown", () => {
    const { stdin, stdout, guard } = setup();
    expect(stdout.written).toEqual(["\x1b[?2004h"]);
    guard.restoreTerminal();
    expect(stdin.rawMode).toEqual([false]);
    expect(stdout.written.at(-1)).toBe("\x1b[?2004l\x1b[?25h");
  });

  it("answers SIGTERM and SIGINT with their exit codes, SIGHUP as a hangup", () => {
    const { calls } = setup();
    lastListener("SIGTERM")("SIGTERM");
    lastListener("SIGINT")("SIGINT");
    expect(calls.signal.mock.calls).toEqual([[143], [130]]);
    lastListener("SIGHUP")("SIGHUP");
    expect(calls.hangup).toHaveBeenCalledWith(129);
  });

  it("after a hangup, or a write that fails with EIO, nothing more is written to the terminal", () => {
    const { stdout, calls, guard } = setup();
    stdout.emit("error", Object.assign(new Error("write EIO"), { code: "EIO" }));
    expect(calls.hangup).toHaveBeenCalledTimes(1);
    expect(guard.hungUp).toBe(true);
    const before = stdout.written.length;
    stdout.write("frame");
    guard.restoreTerminal();
    expect(stdout.written).toHaveLength(before);
  });

  it("on an uncaught error restores the terminal, prints the error and reports the crash", () => {
    const { stdin, stderr, calls } = setup();
    const error = new Error("boom");
    lastListener("uncaughtException")(error);
    expect(stdin.rawMode).toEqual([false]);
    expect(stderr.written.join("")).toContain("nyz: Error: boom");
    expect(calls.crash).toHaveBeenCalledWith(error);
  });

  it("takes uncaughtException from the other listeners while it runs and gives it back", () => {
    const before = process.listeners("uncaughtException");
    const { guard } = setup();
    expect(process.listeners("uncaughtException")).toHaveLength(1);
    guard.release();
    expect(process.listeners("uncaughtException")).toEqual(before);
  });
});
