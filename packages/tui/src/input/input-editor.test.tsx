import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import type { SlashCommand } from "../commands/command-registry.js";
import { KEYS, press } from "../test-support/keys.js";
import { renderAtWidth, widestLine } from "../test-support/render-at-width.js";
import { InputEditor, type InputEditorProps } from "./input-editor.js";

/** A few commands, as the app lists them (the editor knows only their names and arguments). */
const COMMANDS: readonly SlashCommand[] = [
  { name: "model", description: "Pick the model", kind: "instant", args: "[id]" },
  { name: "sessions", description: "Pick a session", kind: "instant", args: "[query]" },
  { name: "settings", description: "Settings", kind: "instant" },
  { name: "search", description: "Search the transcript", kind: "instant", args: "<text>" },
  { name: "changes", description: "Files changed this session", kind: "instant" },
  { name: "compact", description: "Summarize the conversation", kind: "prompt", args: "[focus]" },
];

function setup(props: Partial<InputEditorProps> = {}) {
  const onSubmit = vi.fn<(text: string) => void>();
  const onEscape = vi.fn();
  const view = render(<InputEditor onSubmit={onSubmit} onEscape={onEscape} {...props} />);
  return { ...view, onSubmit, onEscape };
}

/** The editor's text lines, without the border. */
function content(frame: string | undefined): string[] {
  return (frame ?? "")
    .split("\n")
    .filter((line) => line.startsWith("│"))
    .map((line) => line.replace(/^│ /, "").replace(/\s*│$/, ""));
}

describe("InputEditor", () => {
  it("edits and submits a line, then starts empty", async () => {
    const view = setup();
    expect(content(view.lastFrame())).toEqual(["› Ask anything… (/ for commands, @ for files)"]);
    await press(view.stdin, "hello world", KEYS.ctrlW, "there", KEYS.enter);
    expect(view.onSubmit).toHaveBeenCalledWith("hello there");
    expect(content(view.lastFrame())[0]).toBe("› Ask anything… (/ for commands, @ for files)");
  });

  it("inserts newlines with Ctrl+J, Alt+Enter, Shift+Enter and a trailing backslash", async () => {
    const view = setup();
    await press(
      view.stdin,
      "one",
      KEYS.ctrlJ,
      "two",
      KEYS.altEnter,
      "three",
      KEYS.shiftEnterKitty,
      "four\\",
      KEYS.enter,
      "five",
    );
    expect(content(view.lastFrame())).toEqual(["› one", "  two", "  three", "  four", "  five"]);
    expect(view.onSubmit).not.toHaveBeenCalled();
    await press(view.stdin, KEYS.enter);
    expect(view.onSubmit).toHaveBeenCalledWith("one\ntwo\nthree\nfour\nfive");
  });

  it("edits a CJK string and an emoji string in the middle", async () => {
    const view = setup();
    await press(view.stdin, "你好世界", KEYS.left, KEYS.left, "，", KEYS.enter);
    expect(view.onSubmit).toHaveBeenLastCalledWith("你好，世界");
    await press(
      view.stdin,
      "a👍🏽b👨‍👩‍👧c",
      KEYS.left,
      KEYS.backspace,
      KEYS.left,
      KEYS.delete,
      "X",
      KEYS.enter,
    );
    expect(view.onSubmit).toHaveBeenLastCalledWith("a👍🏽Xc");
    await press(
      view.stdin,
      "日本",
      KEYS.home,
      "x",
      KEYS.end,
      "y",
      KEYS.ctrlA,
      "<",
      KEYS.ctrlE,
      ">",
      KEYS.enter,
    );
    expect(view.onSubmit).toHaveBeenLastCalledWith("<x日本y>");
  });

  it("moves between lines with ↑/↓ in multi-line input, and walks history otherwise", async () => {
    const view = setup({ history: ["old one", "older\ntwo lines", "newest"] });
    await press(view.stdin, "draft", KEYS.up);
    expect(content(view.lastFrame())).toEqual(["› newest"]);
    await press(view.stdin, KEYS.up);
    expect(content(view.lastFrame())).toEqual(["› older", "  two lines"]);
    // Inside a multi-line entry ↑ first moves to the line above, then to the older entry.
    await press(view.stdin, KEYS.up, "!", KEYS.up);
    expect(content(view.lastFrame())).toEqual(["› old one"]);
    await press(view.stdin, KEYS.down, KEYS.down, KEYS.down);
    expect(content(view.lastFrame())).toEqual(["› newest"]);
    await press(view.stdin, KEYS.down);
    expect(content(view.lastFrame())).toEqual(["› draft"]);
  });

  it("searches the history with Ctrl+R, newest first, case-insensitively", async () => {
    const view = setup({ history: ["git status", "npm test", "git push", "ls"] });
    await press(view.stdin, KEYS.ctrlR, "GIT");
    expect(content(view.lastFrame())).toEqual(["(reverse-i-search) GIT : git push"]);
    await press(view.stdin, KEYS.ctrlR);
    expect(content(view.lastFrame())).toEqual(["(reverse-i-search) GIT : git status"]);
    await press(view.stdin, KEYS.down, KEYS.enter);
    expect(content(view.lastFrame())).toEqual(["› git push"]);
    expect(view.onSubmit).not.toHaveBeenCalled();
    await press(view.stdin, KEYS.ctrlR, "zzz");
    expect(content(view.lastFrame())).toEqual(["(reverse-i-search) zzz : no match"]);
    await press(view.stdin, KEYS.escape, KEYS.enter);
    expect(view.onSubmit).toHaveBeenCalledWith("git push");
  });

  it("completes / commands: popup as you type, ↑/↓ move, Tab inserts, Enter runs", async () => {
    const view = setup({ commands: COMMANDS });
    await press(view.stdin, "/mo");
    expect(view.lastFrame()).toContain("› /model [id]");
    await press(view.stdin, KEYS.enter);
    expect(view.onSubmit).toHaveBeenCalledWith("/model");
    await press(view.stdin, "/se");
    const popup = () =>
      view
        .lastFrame()!
        .split("\n")
        .filter((line) => /^[› ] \/\w/.test(line));
    expect(popup()[0]).toMatch(/^› \/se/);
    await press(view.stdin, KEYS.down);
    expect(popup()[1]).toMatch(/^› /);
    await press(view.stdin, KEYS.up);
    expect(popup()[0]).toMatch(/^› \/se/);
    await press(view.stdin, KEYS.escape);
    expect(popup()).toEqual([]);
    await press(view.stdin, KEYS.ctrlU, "/sess", KEYS.tab);
    expect(content(view.lastFrame())).toEqual(["› /sessions"]);
    expect(popup()).toEqual([]);
    await press(view.stdin, "my-query", KEYS.enter);
    expect(view.onSubmit).toHaveBeenLastCalledWith("/sessions my-query");
  });

  it("completes @ paths from the file list, skipping e-mail addresses", async () => {
    const files = ["src/index.ts", "src/input/input-editor.tsx", "README.md"];
    const view = setup({ files });
    await press(view.stdin, "mail me@src");
    expect(view.lastFrame()).not.toContain("src/index.ts");
    await press(view.stdin, KEYS.ctrlU, "look at @inedit");
    expect(view.lastFrame()).toContain("› src/input/input-editor.tsx");
    await press(view.stdin, KEYS.enter);
    expect(content(view.lastFrame())).toEqual(["› look at @src/input/input-editor.tsx"]);
    expect(view.onSubmit).not.toHaveBeenCalled();
    await press(view.stdin, "please", KEYS.enter);
    expect(view.onSubmit).toHaveBeenCalledWith("look at @src/input/input-editor.tsx please");
  });

  it("collapses a large paste into a chip and expands it on submit", async () => {
    const pasted = Array.from({ length: 120 }, (_, index) => `row ${index}`).join("\n");
    const view = setup();
    await press(view.stdin, "see ", pasted, " and ", "\u001b[200~", "short\r\npaste", "\u001b[201~");
    expect(content(view.lastFrame())).toEqual(["› see [pasted 120 lines] and short", "  paste"]);
    await press(view.stdin, KEYS.enter);
    // The model gets the paste; the transcript shows the chip, as the input did.
    expect(view.onSubmit).toHaveBeenCalledWith(
      `see ${pasted} and short\npaste`,
      "see [pasted 120 lines] and short\npaste",
    );
    await press(view.stdin, "x", pasted, KEYS.backspace, KEYS.enter);
    expect(view.onSubmit).toHaveBeenLastCalledWith("x");
  });

  it("clears with Esc when idle, and leaves Esc to the app while busy", async () => {
    const idle = setup();
    await press(idle.stdin, "draft", KEYS.escape);
    expect(content(idle.lastFrame())[0]).toBe("› Ask anything… (/ for commands, @ for files)");
    expect(idle.onEscape).not.toHaveBeenCalled();
    const busy = setup({ busy: true });
    await press(busy.stdin, "queued text", KEYS.escape);
    expect(busy.onEscape).toHaveBeenCalledTimes(1);
    expect(content(busy.lastFrame())).toEqual(["› queued text"]);
  });

  it("stays within 40 columns", async () => {
    const view = renderAtWidth(<InputEditor onSubmit={() => {}} commands={COMMANDS} />, 40);
    await press(view.stdin, "/c");
    expect(widestLine(view.lastFrame())).toBeLessThanOrEqual(40);
    expect(view.lastFrame()).toContain("/changes");
  });
});
