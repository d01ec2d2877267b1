import { spawn } from "node:child_process";
import { platform } from "node:os";
import { getLogger } from "@nyzhi/config";

/**
 * Tries to open a URL in the user's browser (`open`, `xdg-open`, `start`). Best effort: it never
 * throws, because the caller has already printed the URL for the user to open by hand.
 */
export function openBrowser(url: string): void {
  const os = platform();
  const [command, args] =
    os === "darwin"
      ? ["open", [url]]
      : os === "win32"
        ? ["cmd", ["/c", "start", '""', url]]
        : ["xdg-open", [url]];
  try {
    const child = spawn(command, args as string[], { stdio: "ignore", detached: true });
    child.on("error", (error) => getLogger().debug({ error: error.message }, "could not open a browser"));
    child.unref();
  } catch (error) {
    getLogger().debug({ error: (error as Error).message }, "could not open a browser");
  }
}
