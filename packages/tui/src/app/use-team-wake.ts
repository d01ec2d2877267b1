import { type OpenedSession, TEAM_WAKE_PROMPT } from "@nyzhi/core";
import { useEffect, useRef } from "react";

/** How often an idle lead in a team looks for mail, ms. */
export const TEAM_MAIL_POLL_MS = 1000;

/**
 * The lead reads its inbox when it is idle and mail arrives (as it does headless): while no turn
 * runs and nothing waits for the person, the app asks core every second whether the lead has team
 * mail, and if so sends the wake prompt as a turn (shown as "✉ mail from your team"). Nothing
 * runs outside a team: core answers false at once.
 */
export function useTeamWake(options: {
  session: OpenedSession | undefined;
  idle: boolean;
  send: (text: string, options: { display: string }) => void;
}): void {
  const { session, idle } = options;
  const send = useRef(options.send);
  send.current = options.send;
  useEffect(() => {
    if (!session || !idle) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async () => {
      const mail = await session.hasTeamMail().catch(() => false);
      if (stopped) return;
      if (mail) send.current(TEAM_WAKE_PROMPT, { display: "✉ mail from your team" });
      else timer = setTimeout(() => void look(), TEAM_MAIL_POLL_MS);
    };
    timer = setTimeout(() => void look(), TEAM_MAIL_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [session, idle]);
}
