import { describe, expect, it } from "vitest";
import { expandCommand, splitWords } from "./expand-command.js";
import { parseSlashInput } from "./parse-slash-input.js";

describe("expandCommand", () => {
  it("substitutes $ARGUMENTS and trims", () => {
    expect(expandCommand({ template: "  Review $ARGUMENTS now.\n" }, "  src/a.ts  ")).toBe(
      "Review src/a.ts now.",
    );
  });

  it("substitutes $1…$9 by words, quotes grouping, missing ones empty", () => {
    const template = "Fix #$1 ($2) in $3. All: $ARGUMENTS. Cost $10";
    expect(expandCommand({ template }, `123 "high priority"`)).toBe(
      'Fix #123 (high priority) in . All: 123 "high priority". Cost $10',
    );
  });

  it("never expands placeholders inside the arguments", () => {
    expect(expandCommand({ template: "A: $ARGUMENTS / $1" }, "$2 $ARGUMENTS")).toBe("A: $2 $ARGUMENTS / $2");
    expect(expandCommand({ template: "Say $ARGUMENTS" }, "$& $$")).toBe("Say $& $$");
  });

  it("appends arguments to a template without placeholders", () => {
    expect(expandCommand({ template: "Run the tests." }, "unit only")).toBe(
      "Run the tests.\n\nARGUMENTS: unit only",
    );
    expect(expandCommand({ template: "Run the tests." }, "  ")).toBe("Run the tests.");
  });

  it("splits words", () => {
    expect(splitWords(`a 'b c' "d e"  f`)).toEqual(["a", "b c", "d e", "f"]);
  });
});

describe("parseSlashInput", () => {
  it("reads the name and trimmed arguments", () => {
    expect(parseSlashInput("/review src/a.ts")).toEqual({ name: "review", args: "src/a.ts" });
    expect(parseSlashInput("  /fix-issue   12 high \n")).toEqual({ name: "fix-issue", args: "12 high" });
    expect(parseSlashInput("/plain")).toEqual({ name: "plain", args: "" });
    expect(parseSlashInput("/frontend:component Button\nwith props")).toEqual({
      name: "frontend:component",
      args: "Button\nwith props",
    });
  });

  it("is undefined for input that is not a command", () => {
    expect(parseSlashInput("review this")).toBeUndefined();
    expect(parseSlashInput("/")).toBeUndefined();
    expect(parseSlashInput("/usr/bin/env node")).toBeUndefined();
    expect(parseSlashInput("// comment")).toBeUndefined();
  });
});
