import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The hosts (the app, `nyz exec`) work through the session's API and its event stream only: the
// runtime under a session is core's business. Test files count too (their doubles are sessions).
const root = fileURLToPath(new URL("../..", import.meta.url));
const HOSTS = ["packages/tui/src", "packages/cli/src"];

function files(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("the hosts and the session", () => {
  it("never reach the runtime under a session (session.runtime, its manager, tracker, teams …)", () => {
    const reaches: string[] = [];
    for (const host of HOSTS) {
      for (const file of files(join(root, host))) {
        readFileSync(file, "utf8")
          .split("\n")
          .forEach((line, index) => {
            if (/\.runtime\b|\bruntime\s*[:=]|\bruntimeOf\b/.test(line)) {
              reaches.push(`${relative(root, file)}:${index + 1}: ${line.trim()}`);
            }
          });
      }
    }
    expect(reaches).toEqual([]);
  });

  it("get no runtime from the session type either", () => {
    const handle = readFileSync(join(root, "packages/core/src/session/session-handle.ts"), "utf8");
    const api = handle.slice(
      handle.indexOf("export interface OpenedSession"),
      handle.indexOf("\n}\n", handle.indexOf("export interface OpenedSession")),
    );
    expect(api).not.toMatch(/\bruntime\b/);
    const index = readFileSync(join(root, "packages/core/src/index.ts"), "utf8");
    expect(index).not.toMatch(/\bruntimeOf\b/);
  });
});
