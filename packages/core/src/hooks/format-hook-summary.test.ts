import { describe, expect, it } from "vitest";
import { formatHookSummary } from "./format-hook-summary.js";

describe("formatHookSummary", () => {
  it("names each ending", () => {
    const base = { label: "make lint", output: "" };
    expect(formatHookSummary({ ...base, status: "ok", exitCode: 0 })).toBe("[hook] make lint (ok)");
    expect(formatHookSummary({ ...base, status: "failed", exitCode: 3 })).toBe("[hook] make lint (exit 3)");
    expect(formatHookSummary({ ...base, status: "timed_out", exitCode: null })).toBe(
      "[hook] make lint (timed out)",
    );
    expect(formatHookSummary({ ...base, status: "killed", exitCode: null })).toBe(
      "[hook] make lint (killed)",
    );
  });

  it("appends the output up to ten lines", () => {
    const output = "one\ntwo\n";
    expect(formatHookSummary({ label: "x", status: "ok", exitCode: 0, output })).toBe(
      "[hook] x (ok)\none\ntwo",
    );
  });

  it("keeps the last ten lines and says how many were trimmed", () => {
    const lines = Array.from({ length: 25 }, (_, index) => `line ${index + 1}`);
    const summary = formatHookSummary({
      label: "x",
      status: "failed",
      exitCode: 1,
      output: `${lines.join("\n")}\n`,
    });
    expect(summary).toBe(["[hook] x (exit 1)", "...(15 lines trimmed)", ...lines.slice(15)].join("\n"));
  });

  it("keeps exactly ten lines without a marker", () => {
    const lines = Array.from({ length: 10 }, (_, index) => `l${index}`);
    const summary = formatHookSummary({ label: "x", status: "ok", exitCode: 0, output: lines.join("\n") });
    expect(summary).toBe(["[hook] x (ok)", ...lines].join("\n"));
  });
});
