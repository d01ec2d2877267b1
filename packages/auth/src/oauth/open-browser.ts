import { spawn } from "node:child_process";
import { platform } from "node:os";
import { getLogger } from "@nyzhi/config";

/**
 * Tries to open a URL in the user's browser (`open`, `xdg-open`, `start`). Best effort: it never
 * throws, because the caller has already printed the URL for the user to open by hand.
 */
export function openBrowser(url: string): void {
  const [command, args] = browserCommand(url, platform());
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", (error) => getLogger().debug({ error: error.message }, "could not open a browser"));
    child.unref();
  } catch (error) {
    getLogger().debug({ error: (error as Error).message }, "could not open a browser");
  }
}

/**
 * The command that opens `url` on `os`. On Windows not `cmd /c start`: cmd would cut an OAuth URL
 * at its first `&` (and run the rest as commands); rundll32 gets the URL as one argument.
 */
export function browserCommand(url: string, os: NodeJS.Platform): [string, string[]] {
  if (os === "darwin") return ["open", [url]];
  if (os === "win32") return ["rundll32", ["url.dll,FileProtocolHandler", url]];
  return ["xdg-open", [url]];
}
