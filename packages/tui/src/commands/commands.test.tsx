import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { BUILTIN_COMMANDS } from "../app/commands/builtin-commands.js";
import { fuzzyMatch } from "../fuzzy/fuzzy-match.js";
import { KEYS, press } from "../test-support/keys.js";
import { CommandPalette } from "./command-palette.js";
import {
  filterCommands,
  findCommand,
  mergeCommands,
  type SlashCommand,
  unknownCommandMessage,
} from "./command-registry.js";

const names = (results: { item: SlashCommand<unknown> }[]) => results.map((result) => result.item.name);

describe("command registry", () => {
  it("filters commands fuzzily, prefix and word starts first", () => {
    expect(names(filterCommands(BUILTIN_COMMANDS, "/mo"))[0]).toBe("model");
    expect(names(filterCommands(BUILTIN_COMMANDS, "cmp"))[0]).toBe("compact");
    expect(names(filterCommands(BUILTIN_COMMANDS, "quit"))).toEqual(["exit"]);
    expect(names(filterCommands(BUILTIN_COMMANDS, "zzz"))).toEqual([]);
    expect(filterCommands(BUILTIN_COMMANDS, "")).toHaveLength(BUILTIN_COMMANDS.length);
    expect(fuzzyMatch("ts", "tui/src/a.ts")!.score).toBeGreaterThan(
      fuzzyMatch("ts", "tests/b.js")!.score - 100,
    );
    expect(fuzzyMatch("abc", "acb")).toBeUndefined();
  });

  it("finds the command an input runs, by name or alias, with its arguments", () => {
    expect(findCommand(BUILTIN_COMMANDS, "/model gpt-5")).toMatchObject({
      command: { name: "model" },
      args: "gpt-5",
    });
    expect(findCommand(BUILTIN_COMMANDS, "/QUIT")).toMatchObject({ command: { name: "exit" }, args: "" });
    expect(findCommand(BUILTIN_COMMANDS, "/xyz")).toBeUndefined();
    expect(findCommand(BUILTIN_COMMANDS, "/usr/bin/env")).toBeUndefined();
    expect(unknownCommandMessage("/xyz please")).toBe("Unknown command /xyz — /help lists them");
  });

  it("merges custom commands without letting them shadow built-ins", () => {
    const custom: SlashCommand[] = [
      { name: "review", description: "Review a diff", kind: "prompt", source: "custom" },
      { name: "exit", description: "shadow", kind: "prompt", source: "custom" },
      { name: "quit", description: "shadow alias", kind: "prompt", source: "custom" },
    ];
    const merged = mergeCommands<SlashCommand<unknown>>(BUILTIN_COMMANDS, custom);
    expect(merged.filter((command) => command.name === "exit")).toEqual([
      BUILTIN_COMMANDS.find((c) => c.name === "exit"),
    ]);
    expect(merged.some((command) => command.name === "review")).toBe(true);
    expect(merged.some((command) => command.name === "quit")).toBe(false);
  });
});

describe("CommandPalette", () => {
  it("searches as you type, j and k included, and picks with Enter", async () => {
    const onSelect = vi.fn();
    const view = render(
      <CommandPalette commands={BUILTIN_COMMANDS} onSelect={onSelect} onClose={() => {}} />,
    );
    expect(view.lastFrame()).toContain("› /help");
    await press(view.stdin, "k", "j");
    // "kj" is typed into the search, not taken as cursor moves: nothing matches it.
    expect(view.lastFrame()).toContain("› kj");
    expect(view.lastFrame()).toContain("No command matches");
    await press(view.stdin, KEYS.backspace, KEYS.backspace, "sess");
    expect(view.lastFrame()).toContain("› /sessions");
    await press(view.stdin, KEYS.enter);
    expect(onSelect).toHaveBeenCalledWith(BUILTIN_COMMANDS.find((command) => command.name === "sessions"));
  });

  it("moves with the arrows and closes with Esc", async () => {
    const onSelect = vi.fn();
    const onClose = vi.fn();
    const view = render(<CommandPalette commands={BUILTIN_COMMANDS} onSelect={onSelect} onClose={onClose} />);
    await press(view.stdin, "co");
    const [first, second] = names(filterCommands(BUILTIN_COMMANDS, "co"));
    expect(view.lastFrame()).toContain(`› /${first}`);
    await press(view.stdin, KEYS.down);
    expect(view.lastFrame()).toContain(`› /${second}`);
    await press(view.stdin, KEYS.up, KEYS.up, KEYS.enter);
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ name: first }));
    await press(view.stdin, KEYS.escape);
    expect(onClose).toHaveBeenCalled();
  });
});
