import type { OpenedSession } from "@nyzhi/core";
import { Box, Text } from "ink";
import { useCallback, useState } from "react";
import type { Keypress } from "../keys/parse-key.js";
import { useTheme } from "../theme/theme-context.js";
import { MODE_LABELS } from "./commands/mode-commands.js";

/** The line over the input in plan mode (spec edges §6.1). */
export const PLAN_BANNER = "┃ Plan Mode — read-only analysis, no edits or commands";

/** What the plan offer says: one key runs the plan. */
export const PLAN_OFFER = "Execute the plan? y or enter runs it · any other key: not now (/plan shows it)";

/**
 * Shift+Tab on an empty input (cycling the session's mode) and the offer to execute a plan when
 * plan mode ends: the session decides, this only asks it and shows the answer.
 */
export function useSessionModeKeys(options: {
  session: OpenedSession | undefined;
  say: (message: string) => void;
  send: (text: string, options?: { display?: string }) => void;
  refresh: () => void;
}) {
  const { session, say, send, refresh } = options;
  const [offer, setOffer] = useState<string | undefined>(undefined);
  const cycle = useCallback(() => {
    if (!session) return;
    const change = session.modes.cycleMode();
    refresh();
    say(`Mode: ${MODE_LABELS[change.mode]}`);
    if (change.plan) setOffer(change.plan);
  }, [refresh, say, session]);
  /** Keys while the offer shows: y or Enter executes the plan, any other key dismisses it. */
  const answerOffer = useCallback(
    (key: Keypress) => {
      if (!session || offer === undefined) return;
      setOffer(undefined);
      const yes = key.name === "return" || (key.name === "text" && key.text.toLowerCase() === "y");
      const prompt = yes ? session.modes.executePlanPrompt() : undefined;
      if (prompt) send(prompt, { display: "execute the plan" });
    },
    [offer, send, session],
  );
  return { offer, setOffer, cycle, answerOffer };
}

/** The plan banner (in plan mode) and the plan offer, over the input. */
export function SessionModeLines({ planMode, offer }: { planMode: boolean; offer: string | undefined }) {
  const theme = useTheme();
  if (!planMode && offer === undefined) return null;
  return (
    <Box flexDirection="column">
      {planMode ? <Text color={theme.warning}>{PLAN_BANNER}</Text> : null}
      {offer !== undefined ? <Text color={theme.accent}>{PLAN_OFFER}</Text> : null}
    </Box>
  );
}
