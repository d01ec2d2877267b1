import { describe, expect, it } from "vitest";
import { browserCommand } from "./open-browser.js";

describe("browserCommand", () => {
  const url = "https://auth.example.com/authorize?client_id=a&redirect_uri=http%3A%2F%2Flocalhost&state=x";

  it("passes the whole URL as one argument, never through cmd on Windows", () => {
    const [command, args] = browserCommand(url, "win32");
    expect(command).not.toBe("cmd");
    expect(args.at(-1)).toBe(url);
    expect(browserCommand(url, "darwin")).toEqual(["open", [url]]);
    expect(browserCommand(url, "linux")).toEqual(["xdg-open", [url]]);
  });
});
