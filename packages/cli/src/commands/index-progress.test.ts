import { describe, expect, it } from "vitest";
import type { CommandIo } from "../io/output.js";
import {
  formatDuration,
  ProgressReporter,
  progressBar,
  progressText,
  summarizeUpdate,
} from "./index-progress.js";

const indexing = (filesDone: number, chunksDone = filesDone * 3, embedded = 0) => ({
  phase: "indexing" as const,
  filesTotal: 1000,
  filesDone,
  chunksDone,
  embedded,
});

function capture(terminal: boolean): { io: CommandIo; err: string[] } {
  const err: string[] = [];
  return {
    err,
    io: {
      stdout: () => undefined,
      stderr: (text) => err.push(text),
      env: {},
      cwd: "/",
      isTerminal: { stdout: terminal, stderr: terminal },
    },
  };
}

describe("progress text", () => {
  it("shows files, chunks, rate and ETA", () => {
    expect(progressText(indexing(250, 900, 900), 5000)).toBe(
      "250/1,000 files · 900 chunks · 900 embedded · 50 files/s · ETA 15 s",
    );
    expect(progressText(indexing(3, 9), 2000)).toBe(
      "3/1,000 files · 9 chunks · 1.5 files/s · ETA 11 min 05 s",
    );
    expect(progressBar(indexing(500))).toBe(`[${"█".repeat(12)}${"░".repeat(12)}]`);
    expect(formatDuration(3_725_000)).toBe("1 h 02 min");
  });
});

describe("ProgressReporter", () => {
  it("redraws one bar on a terminal, at most every 100 ms, and clears it", () => {
    let now = 0;
    const { io, err } = capture(true);
    const reporter = new ProgressReporter(io, () => now);
    reporter.onProgress(indexing(0));
    now = 50;
    reporter.onProgress(indexing(10));
    now = 200;
    reporter.onProgress(indexing(20));
    reporter.finish();
    expect(err).toEqual([
      `\r\x1b[2K[${"░".repeat(24)}] 0/1,000 files · 0 chunks`,
      `\r\x1b[2K[${"░".repeat(24)}] 20/1,000 files · 60 chunks · 100 files/s · ETA 10 s`,
      "\r\x1b[2K",
    ]);
  });

  it("prints plain lines every two seconds when piped, none for a quick update", () => {
    let now = 0;
    const { io, err } = capture(false);
    const reporter = new ProgressReporter(io, () => now);
    reporter.onProgress(indexing(0));
    now = 1000;
    reporter.onProgress(indexing(100));
    expect(err).toEqual([]);
    now = 2500;
    reporter.onProgress(indexing(250));
    now = 3000;
    reporter.onProgress(indexing(300));
    reporter.finish();
    expect(err).toEqual(["indexing: 250/1,000 files · 750 chunks · 100 files/s · ETA 8 s\n"]);
  });
});

describe("summarizeUpdate", () => {
  const base = {
    files: 10,
    chunks: 40,
    indexed: 0,
    embedded: 0,
    removed: 0,
    durationMs: 420,
    aborted: false,
    rebuilt: false,
  };
  const skipped = { ignored: 0, tooLarge: 1, binary: 2, outsideRoot: 0, unreadable: 0 };
  it("says what happened", () => {
    expect(summarizeUpdate({ ...base, skipped })).toBe(
      "The index is up to date: 10 files, 40 chunks (0.4 s). Skipped: 1 too large, 2 binary.",
    );
    expect(summarizeUpdate({ ...base, indexed: 2, embedded: 8, removed: 1, rebuilt: true, skipped })).toBe(
      "Indexed 2 files, 8 chunks embedded, 1 removed in 0.4 s: 10 files, 40 chunks in the index. Rebuilt for the new embedder. Skipped: 1 too large, 2 binary.",
    );
    expect(summarizeUpdate({ ...base, aborted: true, skipped })).toBe(
      "Stopped after 0.4 s: the index keeps 10 files (40 chunks); run `nyz index` to go on.",
    );
  });
});
