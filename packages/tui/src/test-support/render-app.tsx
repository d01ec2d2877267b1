import type { Environment } from "@nyzhi/config";
import type { OpenedSession } from "@nyzhi/core";
import { render } from "ink-testing-library";
import { type Mock, vi } from "vitest";
import { App } from "../app/app.js";
import { SessionBridge } from "../app/session-bridge.js";
import { BEL } from "../app/use-notify.js";
import type { SessionOpener } from "../app/use-session.js";
import { resolveTheme } from "../theme/theme.js";

const theme = resolveTheme({ theme: "dark", env: { NO_COLOR: "1" } });

export type RenderedApp = ReturnType<typeof render> & {
  bridge: SessionBridge;
  onExit: Mock<(code: number) => void>;
};

/** Renders the App over a fake session (or an opener of several), with ink-testing-library. */
export function renderApp(
  session: OpenedSession | SessionOpener,
  props: { initialPrompt?: string; env?: Environment } = {},
): RenderedApp {
  const bridge = new SessionBridge({ cwd: "/work/project" });
  const onExit = vi.fn<(code: number) => void>();
  const open: SessionOpener = typeof session === "function" ? session : async () => session;
  const view = render(
    <App
      bridge={bridge}
      open={open}
      theme={theme}
      env={props.env ?? {}}
      onExit={onExit}
      initialPrompt={props.initialPrompt}
    />,
  );
  // The bell (an approval waits, a long turn ended) is written to the terminal between frames;
  // it is not a frame, so it does not hide the screen the person sees.
  const lastFrame = () => view.frames.findLast((frame) => frame !== BEL);
  return { ...view, lastFrame, bridge, onExit };
}
