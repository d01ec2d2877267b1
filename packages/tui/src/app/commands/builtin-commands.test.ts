import { describe, expect, it } from "vitest";
import { findCommand } from "../../commands/command-registry.js";
import { appCommands } from "./app-commands.js";
import { BUILTIN_COMMANDS } from "./builtin-commands.js";
import type { BuiltinCommand } from "./command-types.js";

describe("the built-in command list", () => {
  it("holds each command once, each with its run, description and group", () => {
    const names = BUILTIN_COMMANDS.flatMap((command) => [command.name, ...(command.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    for (const command of BUILTIN_COMMANDS) {
      expect(typeof command.run, command.name).toBe("function");
      expect(command.description, command.name).not.toBe("");
      expect(command.group, command.name).not.toBe("");
      expect(command.name, command.name).toMatch(/^[a-z][a-z-]*$/);
    }
  });

  it("is what the app lists (help, palette, completion) and runs, name for name", () => {
    const listed = appCommands();
    expect(listed.map((command) => command.name).sort()).toEqual(
      BUILTIN_COMMANDS.map((command) => command.name).sort(),
    );
    for (const command of BUILTIN_COMMANDS)
      expect(findCommand(listed, `/${command.name} x`)?.command).toBe(command);
  });

  it("does not compile a command without its run", () => {
    // @ts-expect-error `run` is required: a command cannot be listed without what it does.
    const missing: BuiltinCommand = { name: "missing", description: "no run", kind: "instant", group: "X" };
    expect(missing.run).toBeUndefined();
  });
});
