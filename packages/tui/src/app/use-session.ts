import { markStartup } from "@nyzhi/config";
import {
  type AgentEvent,
  MissingCredentialError,
  type OpenedSession,
  type SessionResume,
  type TurnInput,
} from "@nyzhi/core";
import { useCallback, useEffect, useRef, useState } from "react";
import type { TranscriptInput } from "../transcript/transcript-types.js";
import { replayThread } from "./replay-thread.js";
import type { SessionBridge } from "./session-bridge.js";
import { type BackgroundTurn, type HeldPrompt, useBackgroundTurns } from "./use-background-turns.js";

/**
 * Opens the app's session: a new one, or `resume` (`nyz -c`, `nyz -s`, `/sessions`); with
 * `reopening`, that session again with its config reloaded (`session.reopen()`, `/trust on`).
 */
export type SessionOpener = (resume?: SessionResume, reopening?: OpenedSession) => Promise<OpenedSession>;

/** How long quitting waits for an interrupted turn to end before closing the session anyway, ms. */
export const TURN_SETTLE_MS = 3000;

export interface UseSessionOptions {
  bridge: SessionBridge;
  open: SessionOpener;
  resume?: SessionResume | undefined;
  /** Sent as the first turn once the session is open (`nyz "prompt"`). */
  initialPrompt?: string | undefined;
  dispatch: (input: TranscriptInput) => void;
  /**
   * The person interrupted a turn (Esc, Ctrl+C) while prompts waited for it: they are not sent;
   * their text is handed back here (for the input), so nothing typed is lost.
   */
  onQueueReturned?: ((text: string) => void) | undefined;
  /**
   * Turns text that arrived before the session was open (`nyz "explain @a.ts"`, what was typed
   * meanwhile) into its prompt once it is: `@paths` attached. Absent: sent as typed.
   */
  prepare?: ((session: OpenedSession, entry: HeldPrompt) => Promise<HeldPrompt>) | undefined;
  /** A session was opened (first, or after `/sessions`, `/clear`), before its saved transcript is shown. */
  onOpened?: ((session: OpenedSession) => void) | undefined;
}

export interface SendOptions {
  /** What the transcript shows as the prompt (default: the input's text). */
  display?: string | undefined;
  /** What the prompt carries (`@path` files, images), one chip each under it. */
  chips?: readonly string[] | undefined;
}

/** The text of a turn's input: its text parts joined. */
export function inputText(input: TurnInput): string {
  if (typeof input === "string") return input;
  return input.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n\n");
}

/** Several prompts as one turn's input (images first, as each prompt had them). */
export function joinInputs(inputs: readonly TurnInput[]): TurnInput {
  if (inputs.every((input) => typeof input === "string"))
    return [{ type: "text", text: inputs.join("\n\n") }];
  return inputs.flatMap((input) =>
    typeof input === "string" ? [{ type: "text" as const, text: input }] : input,
  );
}

/** One turn's transcript line for several prompts sent together. */
function joinHeld(entries: readonly HeldPrompt[]): { input: TurnInput; display: string; chips: string[] } {
  return {
    input: joinInputs(entries.map((entry) => entry.input)),
    display: entries.map((entry) => entry.display).join("\n\n"),
    chips: entries.flatMap((entry) => entry.chips ?? []),
  };
}

/** `needs-login`: no credentials for the provider; the app stays open for `/login`, then `reopen`. */
export type SessionStatus = "opening" | "ready" | "failed" | "needs-login" | "closed";

/** A turn other than a prompt (`/autopilot`): its events, run by the session's API. */
export type TurnStarter = (
  session: OpenedSession,
  signal: AbortSignal,
) => AsyncGenerator<AgentEvent, unknown>;

export interface SessionControls {
  session: OpenedSession | undefined;
  status: SessionStatus;
  /** A turn runs in the foreground (the input queues into it; Esc interrupts it). */
  busy: boolean;
  /** Turns sent to the background this app session (running first, then ended, newest first). */
  background: readonly BackgroundTurn[];
  /**
   * Runs `input` as a turn, or queues it for the running one (delivered at its next step; one
   * with images waits for the turn to end). `chips`: what it carries, shown under the prompt.
   */
  send(input: TurnInput, options?: SendOptions): void;
  /** `!command`: runs the line through the session (the bash tool's rules); its row shows the output. */
  shell(command: string): Promise<void>;
  /**
   * Runs `start` as the foreground turn (Esc interrupts it, approvals reach the person, usage and
   * saving as for a prompt), shown as `display`; false when a turn runs already or no session is open.
   */
  start(start: TurnStarter, display: string): boolean;
  /** Interrupts the running foreground turn and every subagent under the lead. */
  interrupt(): void;
  /** Drops every prompt waiting for the turn (`/clear queue`, `/stop`); how many were dropped. */
  clearQueue(): number;
  /** Ctrl+B: detaches the running turn from the input (see `BackgroundTurn`); false when none runs. */
  detach(): boolean;
  /** `/bg stop`: interrupts the turn running in the background; false when there is none. */
  stopBackground(): boolean;
  /** Closes the session and opens another (`/sessions`; its saved transcript is shown) or a new one. */
  switchTo(resume: SessionResume | undefined): Promise<void>;
  /**
   * Reopens the session on the same conversation with its config loaded again (`/trust on`); the
   * transcript stays. The new session; undefined (and a notice) while a turn runs or if it failed.
   */
  reload(): Promise<OpenedSession | undefined>;
  /** Interrupts, waits briefly for the turn, closes (saves) the session. Safe to call twice. */
  close(): Promise<void>;
  /** The provider that had no credentials (status `needs-login`). */
  missingProvider: string | undefined;
  /** Opens the session again (after `/login`); what was typed meanwhile runs once it is open. */
  reopen(): Promise<void>;
}

/**
 * Waits for `promise` (its failure included), at most `ms`; the timer is cleared when it settles
 * first, so it does not hold the process open after the app has quit.
 */
export async function settleWithin(promise: Promise<unknown> | undefined, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      promise?.catch(() => undefined),
      new Promise((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** No credentials for the provider (auth's `MissingCredentialError`, told by its code). */
function isMissingCredential(error: unknown): error is MissingCredentialError {
  return (
    error instanceof MissingCredentialError ||
    ((error as { code?: unknown })?.code === "auth_missing" &&
      typeof (error as { providerId?: unknown }).providerId === "string")
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The app's link to core's session: opens it, runs turns (dispatching their events into the
 * transcript), queues what is typed during a turn, interrupts, switches and closes. No agent logic:
 * every step goes through `OpenedSession`.
 */
export function useSession(options: UseSessionOptions): SessionControls {
  const { bridge, dispatch } = options;
  const [session, setSession] = useState<OpenedSession | undefined>(undefined);
  const [status, setStatus] = useState<SessionStatus>("opening");
  const [running, setRunning] = useState(false);
  // Its callbacks are stable (the effects below depend on them); `list` changes.
  const {
    list: backgroundTurns,
    detached: isDetached,
    detach: markDetached,
    ended: markEnded,
    hold,
    takeHeld,
  } = useBackgroundTurns(dispatch);
  const turnStartedAt = useRef(0);
  const turnPrompt = useRef("");
  const sessionRef = useRef<OpenedSession | undefined>(undefined);
  const controller = useRef<AbortController | undefined>(undefined);
  /** The turn the person interrupted (its queued prompts go back to the input). */
  const interrupted = useRef<AbortController | undefined>(undefined);
  const turn = useRef<Promise<void> | undefined>(undefined);
  const waiting = useRef<HeldPrompt[]>([]);
  const shellAbort = useRef<AbortController | undefined>(undefined);
  const closing = useRef<Promise<void> | undefined>(undefined);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  const runTurn = useCallback(
    (input: TurnInput | TurnStarter, display: string, chips?: readonly string[]) => {
      const current = sessionRef.current;
      if (!current) return;
      const abort = new AbortController();
      controller.current = abort;
      markStartup("turn");
      turnStartedAt.current = Date.now();
      turnPrompt.current = display;
      setRunning(true);
      dispatch({ type: "user-prompt", text: display, chips });
      turn.current = (async () => {
        let reason: BackgroundTurn["reason"];
        try {
          const events =
            typeof input === "function"
              ? input(current, abort.signal)
              : current.runTurn(input, { signal: abort.signal });
          for await (const event of events) {
            if (event.type === "turn-end" && event.agent.depth === 0) reason = event.reason;
            bridge.take(event);
            dispatch(event);
          }
        } catch (error) {
          reason = "error";
          dispatch({ type: "app-error", message: messageOf(error) });
        } finally {
          controller.current = undefined;
          turn.current = undefined;
          setRunning(false);
        }
        markEnded(reason ?? (abort.signal.aborted ? "aborted" : "completed"));
        // What was typed during the turn but not delivered to it is the next turn.
        const left: HeldPrompt[] = [
          ...current.takeQueued().map((text) => ({ input: text, display: text })),
          ...takeHeld(),
        ];
        if (left.length > 0 && interrupted.current === abort && optionsRef.current.onQueueReturned) {
          dispatch({ type: "queue-cleared" });
          optionsRef.current.onQueueReturned(left.map((entry) => entry.display).join("\n\n"));
        } else if (left.length > 0 && !closing.current && sessionRef.current === current) {
          dispatch({ type: "queue-cleared" });
          const next = joinHeld(left);
          runTurn(next.input, next.display, next.chips);
        }
      })();
    },
    [bridge, dispatch, markEnded, takeHeld],
  );

  const send = useCallback(
    (input: TurnInput, sendOptions: SendOptions = {}) => {
      const current = sessionRef.current;
      const display = sendOptions.display ?? inputText(input);
      const entry: HeldPrompt = { input, display, chips: sendOptions.chips };
      if (!current) {
        waiting.current.push(entry);
        dispatch({ type: "prompt-queued", text: display });
        return;
      }
      const hasImages = typeof input !== "string" && input.some((part) => part.type === "image");
      if (controller.current && (isDetached() || hasImages)) {
        hold(entry);
        dispatch({ type: "prompt-queued", text: display });
        return;
      }
      if (controller.current) {
        current.queueMessage(inputText(input));
        dispatch({ type: "prompt-queued", text: display });
        return;
      }
      // The app expanded slash commands already: text parts are not expanded again.
      runTurn(
        typeof input === "string" ? [{ type: "text", text: input }] : input,
        display,
        sendOptions.chips,
      );
    },
    [dispatch, hold, isDetached, runTurn],
  );

  const start = useCallback(
    (starter: TurnStarter, display: string) => {
      if (!sessionRef.current || controller.current) return false;
      runTurn(starter, display);
      return true;
    },
    [runTurn],
  );

  /** Aborts the running turn (foreground or background), its approvals, questions and subagents. */
  const abortTurn = useCallback(() => {
    const abort = controller.current;
    if (!abort || abort.signal.aborted) return;
    abort.abort();
    bridge.dismissAll("interrupted by the user");
    sessionRef.current?.agents.stopAll();
  }, [bridge]);

  const shell = useCallback(
    async (command: string) => {
      const current = sessionRef.current;
      if (!current) return;
      const abort = new AbortController();
      shellAbort.current = abort;
      dispatch({ type: "user-prompt", text: `!${command}` });
      try {
        for await (const event of current.shell(command, { signal: abort.signal })) {
          bridge.take(event);
          dispatch(event);
        }
      } catch (error) {
        dispatch({ type: "app-error", message: messageOf(error) });
      } finally {
        if (shellAbort.current === abort) shellAbort.current = undefined;
      }
    },
    [bridge, dispatch],
  );

  const interrupt = useCallback(() => {
    shellAbort.current?.abort();
    if (isDetached()) return;
    interrupted.current = controller.current;
    abortTurn();
  }, [abortTurn, isDetached]);

  const detach = useCallback(() => {
    if (!controller.current || controller.current.signal.aborted) return false;
    markDetached(turnPrompt.current, turnStartedAt.current);
    return true;
  }, [markDetached]);

  const stopBackground = useCallback(() => {
    if (!isDetached()) return false;
    abortTurn();
    return true;
  }, [abortTurn, isDetached]);

  const adopt = useCallback(
    (opened: OpenedSession) => {
      sessionRef.current = opened;
      bridge.attach(opened);
      setSession(opened);
      setStatus("ready");
      optionsRef.current.onOpened?.(opened);
      for (const input of replayThread(opened.record.messages)) dispatch(input);
    },
    [bridge, dispatch],
  );

  const closeCurrent = useCallback(async () => {
    abortTurn();
    const running = turn.current;
    if (running) await settleWithin(running, TURN_SETTLE_MS);
    bridge.dismissAll("the app is closing");
    const current = sessionRef.current;
    sessionRef.current = undefined;
    bridge.attach(undefined);
    await current?.close();
  }, [bridge, abortTurn]);

  const [missingProvider, setMissingProvider] = useState<string | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);
  const reopen = useCallback(async () => {
    setStatus("opening");
    setAttempt((count) => count + 1);
  }, []);

  // Open once (again after /login); what arrived before (typed prompts, `nyz "prompt"`) runs when it is ready.
  useEffect(() => {
    let cancelled = false;
    const { open, resume, initialPrompt } = optionsRef.current;
    if (initialPrompt && attempt === 0)
      waiting.current.push({ input: initialPrompt, display: initialPrompt });
    open(resume).then(
      (opened) => {
        if (cancelled || closing.current) {
          void opened.close();
          return;
        }
        adopt(opened);
        const first = waiting.current.splice(0);
        if (first.length === 0) return;
        dispatch({ type: "queue-cleared" });
        const prepare = optionsRef.current.prepare;
        void Promise.all(
          first.map((entry) =>
            prepare && typeof entry.input === "string" ? prepare(opened, entry).catch(() => entry) : entry,
          ),
        ).then((prepared) => {
          if (closing.current || sessionRef.current !== opened) return;
          const next = joinHeld(prepared);
          runTurn(next.input, next.display, next.chips);
        });
      },
      (error: unknown) => {
        if (cancelled) return;
        if (isMissingCredential(error)) {
          // Open anyway: say what is missing and let /login fix it here.
          setMissingProvider(error.providerId);
          setStatus("needs-login");
          dispatch({
            type: "app-notice",
            tone: "warning",
            message: `${error.message}\nType /login to log in to ${error.providerId} here (the browser where it offers it, or an API key), or quit (ctrl+c twice) and set ${error.envVar}.`,
          });
          return;
        }
        setStatus("failed");
        dispatch({ type: "app-error", message: messageOf(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [adopt, dispatch, runTurn, attempt]);

  // The session's events outside a running turn (its opening, background agents, notices).
  useEffect(() => bridge.listen(dispatch), [bridge, dispatch]);

  const switchTo = useCallback(
    async (resume: SessionResume | undefined) => {
      if (controller.current) {
        dispatch({
          type: "app-notice",
          message: "Wait for the turn to end (or press Esc) first.",
          tone: "warning",
        });
        return;
      }
      await closeCurrent();
      setSession(undefined);
      setStatus("opening");
      dispatch({ type: "transcript-cleared" });
      try {
        adopt(await optionsRef.current.open(resume));
      } catch (error) {
        dispatch({ type: "app-error", message: messageOf(error) });
        // Back to a fresh session, so the app stays usable.
        adopt(await optionsRef.current.open());
      }
    },
    [adopt, closeCurrent, dispatch],
  );

  const reload = useCallback(async (): Promise<OpenedSession | undefined> => {
    const current = sessionRef.current;
    if (!current || controller.current) {
      dispatch({
        type: "app-notice",
        message: "Wait for the turn to end (or press Esc) first.",
        tone: "warning",
      });
      return undefined;
    }
    sessionRef.current = undefined;
    bridge.dismissAll("the session is reopening");
    bridge.attach(undefined);
    setSession(undefined);
    setStatus("opening");
    try {
      const next = await optionsRef.current.open(undefined, current);
      sessionRef.current = next;
      bridge.attach(next);
      setSession(next);
      setStatus("ready");
      return next;
    } catch (error) {
      dispatch({ type: "app-error", message: messageOf(error) });
      adopt(await optionsRef.current.open());
      return undefined;
    }
  }, [adopt, bridge, dispatch]);

  const close = useCallback(() => {
    closing.current ??= closeCurrent();
    return closing.current;
  }, [closeCurrent]);

  const clearQueue = useCallback(() => {
    const dropped =
      (sessionRef.current?.takeQueued().length ?? 0) + takeHeld().length + waiting.current.splice(0).length;
    dispatch({ type: "queue-cleared" });
    return dropped;
  }, [dispatch, takeHeld]);

  const busy = running && !isDetached();
  return {
    clearQueue,
    session,
    status,
    busy,
    background: backgroundTurns,
    send,
    shell,
    start,
    interrupt,
    detach,
    stopBackground,
    switchTo,
    reload,
    close,
    missingProvider,
    reopen,
  };
}
