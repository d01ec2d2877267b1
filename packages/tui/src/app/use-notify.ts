import { spawn } from "node:child_process";
import { getLogger } from "@nyzhi/config";
import { useStdout } from "ink";
import { useCallback, useEffect, useRef, useState } from "react";

/** `/notify`: how the app calls back a person who looked away (`tui.notify` in config). */
export interface NotifySettings {
  /** Write BEL (the terminal's bell). */
  bell: boolean;
  /** A desktop notification (`notify-send`, or `osascript` on macOS). */
  desktop: boolean;
  /** Only turns that took longer than this notify, ms. */
  afterMs: number;
}

/** The terminal bell. */
export const BEL = "\x07";

function desktopNotify(message: string): void {
  const command =
    process.platform === "darwin"
      ? ["osascript", ["-e", `display notification ${JSON.stringify(message)} with title "nyzhi"`]]
      : ["notify-send", ["nyzhi", message]];
  try {
    const child = spawn(command[0] as string, command[1] as string[], { stdio: "ignore", detached: true });
    child.on("error", (error) => getLogger().info({ error }, "no desktop notification (notifier missing)"));
    child.unref();
  } catch (error) {
    getLogger().info({ error }, "no desktop notification");
  }
}

/**
 * Rings (and/or notifies the desktop) when a turn that ran longer than `afterMs` ends, and when an
 * approval starts waiting for the person.
 */
export function useNotify(options: { initial: NotifySettings; busy: boolean; approvalsWaiting: number }) {
  const { stdout } = useStdout();
  const [settings, setSettings] = useState(options.initial);
  const current = useRef(settings);
  current.current = settings;
  const notify = useCallback(
    (message: string) => {
      if (current.current.bell) stdout.write(BEL);
      if (current.current.desktop) desktopNotify(message);
    },
    [stdout],
  );
  const startedAt = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (options.busy) {
      startedAt.current = Date.now();
      return;
    }
    const started = startedAt.current;
    startedAt.current = undefined;
    if (started !== undefined && Date.now() - started > current.current.afterMs)
      notify(`The turn ended after ${Math.round((Date.now() - started) / 1000)} s.`);
  }, [options.busy, notify]);
  const waiting = useRef(0);
  useEffect(() => {
    if (options.approvalsWaiting > waiting.current) notify("An approval waits for you.");
    waiting.current = options.approvalsWaiting;
  }, [options.approvalsWaiting, notify]);
  return { settings, update: setSettings };
}
