import type { Environment } from "@nyzhi/config";
import { parseSlashInput, type SessionResume, type TurnInput } from "@nyzhi/core";
import { Box, Text, useStdin } from "ink";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { ApprovalDialog } from "../approval/approval-dialog.js";
import type { ApprovalDecision, ApprovalRequestView } from "../approval/approval-types.js";
import { CommandPalette } from "../commands/command-palette.js";
import { findCommand, type SlashCommand, unknownCommandMessage } from "../commands/command-registry.js";
import type { FileSource } from "../input/input-completion.js";
import { InputEditor, type InputEditorHandle } from "../input/input-editor.js";
import type { InputHistory } from "../input/input-history.js";
import { SecretPrompt } from "../input/secret-prompt.js";
import { isCtrl } from "../keys/parse-key.js";
import { useKeypress } from "../keys/use-keypress.js";
import { createSessionViewStore, useSessionView } from "../session-view/session-view-store.js";
import { type FooterMode, StatusFooter } from "../status/status-footer.js";
import { WorkingLine } from "../status/working-line.js";
import type { Theme } from "../theme/theme.js";
import { ThemeProvider } from "../theme/theme-context.js";
import type { TranscriptInput } from "../transcript/transcript-types.js";
import { TranscriptView } from "../transcript/transcript-view.js";
import { AgentsPanel, SteerPrompt, submitSteer } from "./agents-panel.js";
import { appHeader } from "./app-header.js";
import { readClipboardImage } from "./clipboard-image.js";
import { appCommands, loadExtraCommands } from "./commands/app-commands.js";
import type { AppCommand, CommandContext, HostContext } from "./commands/command-types.js";
import { describeThinking, MODE_LABELS } from "./commands/mode-commands.js";
import { composeInEditor } from "./external-editor.js";
import { Picker, type PickerSpec } from "./picker.js";
import { SearchBar, useTranscriptSearch } from "./search-bar.js";
import type { SessionBridge } from "./session-bridge.js";
import { SessionModeLines, useSessionModeKeys } from "./session-mode-view.js";
import { pastedImagePath, preparePrompt, readTypedInput } from "./typed-input.js";
import { panelFooterMode, useAgentsPanel } from "./use-agents-panel.js";
import { useApprovalFocus } from "./use-approval-focus.js";
import { useAutopilotNotice } from "./use-autopilot-notice.js";
import { useBatchedDispatch } from "./use-batched-dispatch.js";
import { useContextFill } from "./use-context-fill.js";
import { useIndexWarmUp } from "./use-index-warm-up.js";
import { useLogin } from "./use-login.js";
import { type NotifySettings, useNotify } from "./use-notify.js";
import { useRewind } from "./use-rewind.js";
import { inputText, type SendOptions, type SessionOpener, useSession } from "./use-session.js";
import { useTeamWake } from "./use-team-wake.js";

/** A second Ctrl+C within this many ms quits. */
export const QUIT_WINDOW_MS = 1500;

export interface AppProps {
  bridge: SessionBridge;
  open: SessionOpener;
  resume?: SessionResume | undefined;
  /** Sent once the session is open (`nyz "prompt"`). */
  initialPrompt?: string | undefined;
  theme: Theme;
  env: Environment;
  /** nyzhi's version (the header's first line). */
  version?: string | undefined;
  history?: InputHistory | undefined;
  files?: FileSource | undefined;
  /** `agent.trust.mode` for the status line until the session is open. */
  trustMode?: string | undefined;
  /** Lines shown first (config warnings). */
  notices?: readonly string[] | undefined;
  /** Called once the session is closed (saved): the host unmounts and restores the terminal. */
  onExit: (code: number) => void;
  /** Receives the app's `quit`, so signals (SIGTERM, SIGHUP) close the session the same way. */
  quitRef?: { current: ((code: number) => Promise<void>) | undefined } | undefined;
}

/** Until the session's config is read (`tui.notify`). */
const NOTIFY_DEFAULTS: NotifySettings = { bell: true, desktop: false, afterMs: 5000 };

type Overlay = { kind: "palette" } | { kind: "picker"; picker: PickerSpec } | undefined;

/** Subagents' events reach the session view on the refresh clock's ticks (the lead's within a frame). */
const fromSubagent = (input: TranscriptInput) => "agent" in input && input.agent.depth > 0;

/**
 * The moments the person waits for after Enter: the lead's first words of each step and the end
 * of its turn. They are drawn at once, not at the end of the batching window and ink's next
 * frame-rate tick (up to ~50 ms later); the rest of a streaming answer keeps the batching.
 */
export function answerMoments(): (input: TranscriptInput) => boolean {
  let answering = false;
  return (input) => {
    if (!("agent" in input) || input.agent.depth !== 0) return false;
    if (input.type === "step-start") answering = false;
    if (input.type === "text-delta" && !answering) {
      answering = true;
      return true;
    }
    return input.type === "turn-end";
  };
}

/**
 * The interactive app: the transcript (finished items in the terminal's scrollback, the live ones
 * below), the approval dialog, the prompt editor and the status line. A subscriber: the session's
 * events go through one pump into one view of the session (`createSessionViewStore`); the
 * transcript, the status line and the agents panel each read their slice of it. It calls the
 * session's API.
 */
export function App(props: AppProps) {
  const { bridge, env } = props;
  // The one view of the session: every batch of the one pump is reduced into it once.
  const [view] = useState(createSessionViewStore);
  useEffect(() => () => view.close(), [view]);
  // The app redraws for the lead's transcript and the totals; the panel reads its own slices.
  const transcript = useSessionView(view, (shown) => shown.lead);
  const totals = useSessionView(view, (shown) => shown.totals);
  const [urgent] = useState(answerMoments);
  const dispatchRaw = useBatchedDispatch<TranscriptInput>(view.pushAll, { background: fromSubagent, urgent });
  /** When the lead's turn last said anything (the working line's silence notice). */
  const lastActivityAt = useRef(0);
  const dispatch = useCallback(
    (input: TranscriptInput) => {
      if ("agent" in input && input.agent.depth === 0 && input.type !== "team-state")
        lastActivityAt.current = Date.now();
      dispatchRaw(input);
    },
    [dispatchRaw],
  );
  const editor = useRef<InputEditorHandle | undefined>(undefined);
  /** The header is written once, when the first session opens (not again after `/clear`). */
  const headerWritten = useRef(false);
  const controls = useSession({
    bridge,
    open: props.open,
    resume: props.resume,
    initialPrompt: props.initialPrompt,
    dispatch,
    onOpened: (opened) => {
      if (headerWritten.current) return;
      headerWritten.current = true;
      dispatch({
        type: "app-header",
        header: appHeader(opened, { version: props.version ?? "0.0.0-dev", env }),
      });
    },
    onQueueReturned: (text) => {
      editor.current?.insert(text);
      dispatch({
        type: "app-notice",
        message: "Interrupted. What you queued was not sent: it is back in the input (Enter sends it).",
      });
    },
    // `nyz "explain @a.ts"` and what was typed before the session opened: `@paths` attached then.
    prepare: async (opened, entry) => {
      const prepared = await preparePrompt(opened, inputText(entry.input), []);
      if (!prepared.ok) {
        dispatch({ type: "app-notice", message: prepared.message, tone: "warning" });
        return entry;
      }
      for (const message of prepared.refused) dispatch({ type: "app-notice", message, tone: "warning" });
      return { input: prepared.input, display: entry.display, chips: prepared.chips };
    },
  });
  const { session, busy } = controls;
  // The working line counts from the moment the turn starts (Enter), before any byte arrives.
  const [busySince, setBusySince] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (!busy) return setBusySince(undefined);
    const now = Date.now();
    lastActivityAt.current = now;
    setBusySince(now);
  }, [busy]);
  const panel = useAgentsPanel(session, view);
  useIndexWarmUp(session);
  const approvals = useSyncExternalStore(bridge.approvals.subscribe, bridge.approvals.snapshot);
  const question = useSyncExternalStore(bridge.subscribeQuestions, bridge.question);
  const approvalFocus = useApprovalFocus(approvals, editor);
  const notify = useNotify({ initial: NOTIFY_DEFAULTS, busy, approvalsWaiting: approvals.length });
  const notifyFromConfig = useRef(false);
  useEffect(() => {
    if (!session || notifyFromConfig.current) return;
    notifyFromConfig.current = true;
    // A host's session without the `tui` table (a test double) keeps the defaults.
    const configured = session.config.tui?.notify;
    if (configured)
      notify.update({
        bell: configured.bell,
        desktop: configured.desktop,
        afterMs: configured.min_duration_ms,
      });
  }, [notify.update, session]);
  const items = useRef(transcript.items);
  items.current = transcript.items;
  const search = useTranscriptSearch(useCallback(() => items.current, []));
  const { stdin } = useStdin();
  const [overlay, setOverlay] = useState<Overlay>(undefined);
  const [inputEpoch, setInputEpoch] = useState(0);
  const [quitArmedAt, setQuitArmedAt] = useState<number | undefined>(undefined);
  const [, setRefresh] = useState(0);
  const [extraCommands, setExtraCommands] = useState<readonly AppCommand[]>([]);
  const exiting = useRef(false);

  const commands = useMemo(() => appCommands(extraCommands), [extraCommands]);

  useEffect(() => {
    for (const message of props.notices ?? []) dispatch({ type: "app-notice", message, tone: "warning" });
  }, [dispatch, props.notices]);

  useEffect(() => {
    if (!session) return;
    let cancelled = false;
    loadExtraCommands(session).then(
      (extra) => {
        if (!cancelled) setExtraCommands(extra);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [session]);

  const quit = useCallback(
    async (code = 0) => {
      if (exiting.current) return;
      exiting.current = true;
      try {
        await controls.close();
      } catch (error) {
        dispatch({ type: "app-error", message: `Saving the session failed: ${String(error)}` });
      }
      props.onExit(code);
    },
    [controls, dispatch, props],
  );
  if (props.quitRef) props.quitRef.current = quit;

  // Nothing works without a session (no credentials, `nyz -c` with none saved): say why and end.
  useEffect(() => {
    if (controls.status === "failed") void quit(1);
  }, [controls.status, quit]);

  const say = useCallback(
    (message: string, tone: "info" | "warning" = "info") => dispatch({ type: "app-notice", message, tone }),
    [dispatch],
  );
  const warn = useCallback((message: string) => say(message, "warning"), [say]);
  useAutopilotNotice(session, say);
  const contextFill = useContextFill(session, `${busy}:${totals.usage.inputTokens}`, warn);
  /** Ctrl+T and `/agents`: an empty panel never takes the keys (what is typed next would vanish). */
  const togglePanel = useCallback(
    (toggle: () => void) => {
      if (!panel.visible && !panel.hasContent) {
        say("No agents are running: the panel opens by itself when the lead starts one.");
        return;
      }
      toggle();
    },
    [panel.visible, panel.hasContent, say],
  );
  /** A prompt for the lead: finished agents leave the panel first. */
  const sendPrompt = useCallback(
    (input: TurnInput, options?: SendOptions) => {
      panel.nextPrompt();
      controls.send(input, options);
    },
    [controls.send, panel.nextPrompt],
  );
  const rewind = useRewind({
    session,
    busy,
    dispatch,
    say,
    openPicker: (picker) => setOverlay({ kind: "picker", picker }),
    editor,
  });

  /** A typed prompt: `@paths` and images attached through the session, `&` sent to the background. */
  const sendTyped = useCallback(
    async (text: string, display: string, images: readonly string[], background: boolean) => {
      if (!session) return sendPrompt(text, { display });
      const prepared = await preparePrompt(session, text, images).catch((error: unknown) => ({
        ok: false as const,
        message: error instanceof Error ? error.message : String(error),
      }));
      if (!prepared.ok) {
        say(`${prepared.message}\nNothing was sent: the prompt is back in the input.`, "warning");
        editor.current?.insert(text);
        return;
      }
      for (const refused of prepared.refused) say(refused, "warning");
      const wasBusy = busy;
      sendPrompt(prepared.input, { display, chips: prepared.chips });
      if (!background) return;
      if (wasBusy) say("A turn is running: the & prompt waits for it, then runs as the next turn.");
      else if (controls.detach()) say("The prompt runs in the background (/bg lists it); the input is free.");
    },
    [busy, controls, say, sendPrompt, session],
  );
  /** Whether a paste is an image file's path: attached as a chip when the model takes images. */
  const imageOfPaste = useCallback(
    (pasted: string) => {
      const path = pastedImagePath(pasted, session?.projectRoot ?? process.cwd());
      if (path === undefined) return undefined;
      if (session && !session.acceptsImages()) {
        say(`${session.model.modelId} does not take image input: the path was pasted as text.`, "warning");
        return undefined;
      }
      return path;
    },
    [say, session],
  );
  const pasteClipboardImage = useCallback(async () => {
    if (session && !session.acceptsImages())
      return say(`${session.model.modelId} does not take image input: nothing was attached.`, "warning");
    const path = await readClipboardImage(env as NodeJS.ProcessEnv);
    if (path === undefined)
      return say("No image on the clipboard (Ctrl+V reads it with wl-paste, xclip or pngpaste).", "warning");
    editor.current?.attachImage(path);
  }, [env, say, session]);

  const refresh = useCallback(() => setRefresh((count) => count + 1), []);
  const modeKeys = useSessionModeKeys({ session, say, send: sendPrompt, refresh });
  useTeamWake({
    session,
    idle: !busy && approvals.length === 0 && question === undefined && controls.status === "ready",
    send: sendPrompt,
  });

  /** `/login`: a pasted key (masked) or the browser login; the session uses it at once. */
  const logins = useLogin({ env, session, controls, say, dispatch });
  const loginFor = logins.keyFor;
  const hostContext = useCallback(
    (): HostContext => ({
      busy,
      env,
      commands,
      dispatch,
      say,
      askApiKey: logins.askApiKey,
      loginWithBrowser: logins.loginWithBrowser,
      cancelBrowserLogin: logins.cancelBrowserLogin,
      openPicker: (picker) => setOverlay({ kind: "picker", picker }),
      missingProvider: controls.missingProvider,
      exit: () => void quit(0),
    }),
    [
      busy,
      commands,
      controls.missingProvider,
      dispatch,
      env,
      logins.askApiKey,
      logins.cancelBrowserLogin,
      logins.loginWithBrowser,
      quit,
      say,
    ],
  );
  const context = useCallback(
    (current: NonNullable<typeof session>): CommandContext => ({
      ...hostContext(),
      session: current,
      send: sendPrompt,
      startTurn: (start, display) => {
        panel.nextPrompt();
        return controls.start(start, display);
      },
      agents: { toggle: () => togglePanel(panel.toggleVisible) },
      background: { list: () => controls.background, stop: controls.stopBackground },
      rewind: rewind.open,
      switchSession: controls.switchTo,
      reopenSession: controls.reload,
      refresh,
      offerPlan: modeKeys.setOffer,
      search: search.start,
      composeInEditor: async () => {
        const result = await composeInEditor(editor.current?.text() ?? "", env, stdin);
        if ("error" in result) return say(result.error, "warning");
        editor.current?.replace(result.text);
        say(`Loaded ${result.text.split("\n").length} line(s) from the editor (enter sends them).`);
      },
      notify: { settings: () => notify.settings, update: notify.update },
      queue: { clear: controls.clearQueue },
      interrupt: controls.interrupt,
    }),
    [
      controls,
      env,
      hostContext,
      modeKeys.setOffer,
      notify.settings,
      notify.update,
      panel.nextPrompt,
      panel.toggleVisible,
      refresh,
      rewind.open,
      say,
      search.start,
      sendPrompt,
      stdin,
      togglePanel,
    ],
  );

  /** Said when a command needs the session before it is open. */
  const noSessionYet = useCallback(
    () =>
      dispatch({
        type: "app-notice",
        message:
          controls.status === "needs-login"
            ? "No session yet: /login first (it opens once a key is saved)."
            : "The session is still opening; try again in a moment.",
        tone: "warning",
      }),
    [controls.status, dispatch],
  );

  /**
   * Commands that wait: prompt-kind ones typed while a turn runs (they run when it ends), and any
   * typed while the session opens or reopens (`/trust on`, `/login`): they run once it is open.
   */
  const deferred = useRef<({ command: AppCommand; args: string } | { custom: string })[]>([]);
  const opening = !session && controls.status !== "needs-login";
  const runCommand = useCallback(
    async (command: AppCommand, args: string) => {
      try {
        if (!session) {
          if (command.runWithoutSession) await command.runWithoutSession(args, hostContext());
          else if (opening) {
            deferred.current.push({ command, args });
            say(`/${command.name} runs once the session is open.`);
          } else noSessionYet();
          return;
        }
        if (busy && command.kind === "prompt") {
          deferred.current.push({ command, args });
          say(`/${command.name} talks to the model: it runs when this turn ends.`);
          return;
        }
        await command.run(args, context(session));
      } catch (error) {
        dispatch({ type: "app-error", message: error instanceof Error ? error.message : String(error) });
      }
    },
    [busy, context, dispatch, hostContext, noSessionYet, opening, say, session],
  );

  /** A `/name` not in the list: a custom command or MCP prompt the session expands, or unknown. */
  const runCustom = useCallback(
    async (typed: string) => {
      if (!session) {
        if (opening) deferred.current.push({ custom: typed });
        else noSessionYet();
        return;
      }
      let expanded: string;
      try {
        expanded = await session.expandCommand(typed);
      } catch (error) {
        const unknown = (error as { code?: unknown }).code === "usage";
        dispatch({
          type: "app-notice",
          message: unknown ? unknownCommandMessage(typed) : String((error as Error).message ?? error),
          tone: "warning",
        });
        return;
      }
      sendPrompt(expanded, { display: typed });
    },
    [dispatch, noSessionYet, opening, sendPrompt, session],
  );
  useEffect(() => {
    if (busy || !session) return;
    const next = deferred.current.shift();
    if (!next) return;
    if ("custom" in next) void runCustom(next.custom);
    else void runCommand(next.command, next.args);
  }, [busy, runCommand, runCustom, session]);

  const submit = useCallback(
    (text: string, display?: string, images: readonly string[] = []) => {
      if (panel.steer) return submitSteer(panel, session, text, say);
      void props.history?.push(text).catch(() => undefined);
      if (question) {
        dispatch({ type: "app-notice", message: `↳ ${text}` });
        bridge.answerQuestion(text);
        return;
      }
      if (images.length === 0 && parseSlashInput(text)) {
        const found = findCommand(commands, text);
        if (found) void runCommand(found.command, found.args);
        else void runCustom(text.trim());
        return;
      }
      const typed = readTypedInput(text, display ?? text);
      if (typed?.kind === "shell") {
        if (!session) return noSessionYet();
        void controls.shell(typed.command);
        return;
      }
      if (typed) void sendTyped(typed.text, typed.display, images, typed.background);
    },
    [
      bridge,
      commands,
      controls,
      dispatch,
      noSessionYet,
      panel,
      props.history,
      question,
      runCommand,
      runCustom,
      say,
      sendTyped,
      session,
    ],
  );

  const answerApproval = useCallback(
    (request: ApprovalRequestView, decision: ApprovalDecision) => {
      // Core remembers an "allow always" and says what it covers (a `permissions` notice).
      bridge.approvals.answer(request.id, decision);
    },
    [bridge],
  );

  useKeypress((key) => {
    if (modeKeys.offer !== undefined && approvals.length === 0) {
      modeKeys.answerOffer(key);
    } else if (search.search && isCtrl(key, "n")) {
      search.next();
    } else if (search.search && key.name === "escape" && approvals.length === 0 && overlay === undefined) {
      search.clear();
    } else if (
      key.name === "tab" &&
      key.shift &&
      approvals.length === 0 &&
      overlay === undefined &&
      !panel.focused &&
      (editor.current?.text() ?? "") === ""
    ) {
      modeKeys.cycle();
    } else if (isCtrl(key, "c")) {
      const now = Date.now();
      if (quitArmedAt !== undefined && now - quitArmedAt <= QUIT_WINDOW_MS) {
        void quit(0);
        return;
      }
      setQuitArmedAt(now);
      // The first Ctrl+C of a running turn interrupts it (as Esc does); the input keeps its text.
      if (busy) {
        controls.interrupt();
        return;
      }
      setOverlay(undefined);
      setInputEpoch((epoch) => epoch + 1);
    } else if (isCtrl(key, "g") && approvals.length > 0) {
      approvalFocus.take();
    } else if (isCtrl(key, "k") && approvals.length === 0) {
      setOverlay((current) => (current?.kind === "palette" ? undefined : { kind: "palette" }));
    } else if (isCtrl(key, "t") && approvals.length === 0 && overlay === undefined) {
      togglePanel(panel.toggleFocus);
    } else if (isCtrl(key, "v") && approvals.length === 0 && overlay === undefined && !panel.focused) {
      void pasteClipboardImage();
    } else if (isCtrl(key, "b")) {
      say(
        controls.detach()
          ? "The turn runs in the background (/bg lists it); its approvals still reach you."
          : "No turn is running.",
      );
    }
  });

  useEffect(() => {
    if (quitArmedAt === undefined) return;
    const timer = setTimeout(() => setQuitArmedAt(undefined), QUIT_WINDOW_MS);
    return () => clearTimeout(timer);
  }, [quitArmedAt]);

  /** Esc with nothing running: stops a `!command` line; twice on an empty input opens the rewind list. */
  const escapeWhileIdle = (double: boolean) => {
    controls.interrupt();
    if (double) rewind.open();
    else rewind.pressEscape();
  };

  const dialogOpen = approvals.length > 0;
  // A held dialog (opened while the person typed) leaves the keys to the input.
  const dialogHasKeys = dialogOpen && !approvalFocus.held;
  const mode: FooterMode = dialogHasKeys
    ? "approval"
    : dialogOpen
      ? "approval-held"
      : (panelFooterMode(panel) ?? (busy ? "busy" : "idle"));
  const model = session ? session.model.modelId : "…";
  const trust = session?.modes.trustMode() ?? props.trustMode ?? "";
  return (
    <ThemeProvider theme={props.theme}>
      <TranscriptView state={transcript} />
      <AgentsPanel
        panel={panel}
        session={session}
        isActive={!dialogHasKeys && overlay === undefined}
        say={say}
        onTypeThrough={(key) => editor.current?.feed(key)}
      />
      {controls.status === "opening" ? <Text color={props.theme.muted}>Opening the session…</Text> : null}
      {dialogOpen ? (
        <ApprovalDialog
          requests={approvals}
          onAnswer={answerApproval}
          held={approvalFocus.held}
          onStray={approvalFocus.stray}
        />
      ) : null}
      {!dialogOpen && overlay?.kind === "palette" ? (
        <CommandPalette
          commands={commands as SlashCommand<unknown>[]}
          onClose={() => setOverlay(undefined)}
          onSelect={(command) => {
            setOverlay(undefined);
            void runCommand(command as AppCommand, "");
          }}
        />
      ) : null}
      {!dialogOpen && overlay?.kind === "picker" ? (
        <Picker key={overlay.picker.title} picker={overlay.picker} onClose={() => setOverlay(undefined)} />
      ) : null}
      {question ? (
        <Box flexDirection="column">
          <Text color={props.theme.accent}>? {question.question}</Text>
          {question.choices?.length ? (
            <Text color={props.theme.muted}>{question.choices.join(" · ")}</Text>
          ) : null}
        </Box>
      ) : null}
      {busySince !== undefined && !dialogOpen ? (
        <WorkingLine
          since={busySince}
          lastActivityAt={() => Math.max(lastActivityAt.current, busySince)}
          provider={session?.model.providerId ?? "the provider"}
        />
      ) : null}
      {loginFor !== undefined ? (
        <SecretPrompt
          label={`Paste the API key for ${loginFor}:`}
          onSubmit={(key) => void logins.saveKey(loginFor, key)}
          onCancel={logins.cancelKey}
        />
      ) : null}
      <SteerPrompt panel={panel} />
      <SessionModeLines planMode={session?.modes.mode === "plan"} offer={modeKeys.offer} />
      <SearchBar search={search.search} />
      <InputEditor
        key={inputEpoch}
        onSubmit={submit}
        onEscape={
          search.search
            ? search.clear
            : panel.steer
              ? () => panel.endSteer()
              : busy
                ? () => controls.interrupt()
                : escapeWhileIdle
        }
        imageOfPaste={imageOfPaste}
        busy={busy}
        history={props.history?.entries}
        commands={commands as SlashCommand<unknown>[]}
        files={props.files}
        isActive={
          !dialogHasKeys &&
          overlay === undefined &&
          !panel.focused &&
          loginFor === undefined &&
          modeKeys.offer === undefined
        }
        handle={editor}
      />
      <StatusFooter
        model={model}
        trust={trust}
        sessionMode={session ? MODE_LABELS[session.modes.mode] : undefined}
        thinking={session ? describeThinking(session.modes.thinking) : undefined}
        mode={mode}
        usage={totals.usage}
        costUsd={totals.costUsd}
        embeddingTokens={totals.embeddingTokens}
        index={transcript.index}
        queued={transcript.queued.length}
        background={controls.background.filter((turn) => turn.endedAt === undefined).length}
        context={contextFill}
      />
      {quitArmedAt !== undefined ? <Text color={props.theme.warning}>Press Ctrl+C again to quit</Text> : null}
    </ThemeProvider>
  );
}
