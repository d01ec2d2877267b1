import { describe, expect, it } from "vitest";
import { opensApp } from "./open-app-args.js";

const commands = new Set(["exec", "run", "config", "help", "sessions"]);

describe("opensApp", () => {
  it("opens the app without a command: no arguments, a prompt, -c, -s, global flags", () => {
    for (const args of [
      [],
      ["fix the bug"],
      ["-c"],
      ["-s", "parser"],
      ["-m", "opus", "hello"],
      ["--", "exec"],
    ]) {
      expect(opensApp(args, commands), args.join(" ")).toBe(true);
    }
  });

  it("leaves commands, help, version and unknown flags to the command parser", () => {
    for (const args of [
      ["exec", "x"],
      ["-m", "opus", "run", "x"],
      ["--help"],
      ["-V"],
      ["--frob"],
      ["help"],
    ]) {
      expect(opensApp(args, commands), args.join(" ")).toBe(false);
    }
  });
});
