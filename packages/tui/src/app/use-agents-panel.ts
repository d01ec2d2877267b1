import type { OpenedSession, TeamSnapshot } from "@nyzhi/core";
import { useCallback, useEffect, useState } from "react";
import type { AgentInputAction } from "../agents/agent-transcripts.js";
import { type SessionViewStore, useSessionView } from "../session-view/session-view-store.js";

/**
 * Whether the panel shows: `auto` while there is something in it (agents or a team), `shown`
 * after Ctrl+T or `/agents` (even empty), `hidden` after the user hid it. The next prompt sets it
 * back to `auto`.
 */
export type PanelMode = "auto" | "shown" | "hidden";

/** Text the input editor takes for an agent instead of the lead: `i` (send input) or `r` (resume). */
export interface SteerRequest {
  kind: "input" | "resume";
  agentId: string;
}

export interface AgentsPanelControls {
  /**
   * The app's one view of the session: the component that draws the panel reads its slices (the
   * tree, the agents' transcripts) with `useSessionView`, so they re-render that component only.
   */
  store: SessionViewStore;
  /** The teams as core last reported them (`team-state` events); undefined while the session is in none. */
  teams: TeamSnapshot | undefined;
  visible: boolean;
  /** There are agents or teams to show (an empty panel is never given the keys). */
  hasContent: boolean;
  /** The panel has the keys (↑/↓, 1–9, Enter; or the open transcript's keys). */
  focused: boolean;
  /** The agent whose transcript is open, if any. */
  openAgent: string | undefined;
  /** Text being typed for an agent (the input editor has the keys then). */
  steer: SteerRequest | undefined;
  /** Input the user sent to an agent, shown in its transcript. */
  record(action: AgentInputAction): void;
  /** The user sends the next prompt: finished agents leave, and the panel shows while it has agents. */
  nextPrompt(): void;
  /** Ctrl+T: shows the panel and gives it the keys; pressed there, hides it. */
  toggleFocus(): void;
  /** `/agents`: shows (with the keys) or hides the panel. */
  toggleVisible(): void;
  /** Gives the keys back to the input editor (Esc in the tree). */
  blur(): void;
  open(agentId: string | undefined): void;
  startSteer(request: SteerRequest): void;
  /** Ends typing for an agent; the keys go back to the panel. */
  endSteer(): void;
  /** An agent's worktree changes were merged or discarded: its row stops offering them. */
  decided(agentId: string): void;
}

/**
 * The app's side of the agents panel: what it shows is the session view's (`store`: the tree, the
 * agents' transcripts, the teams from core's `team-state` events, read once when a session opens;
 * nothing is polled); this hook keeps which part of the screen has the keys and tells the view
 * what the user did to it (input sent to an agent, finished agents cleared, a worktree decided).
 * The app itself re-renders only when the panel appears, goes or changes hands, not on its events.
 */
export function useAgentsPanel(
  session: OpenedSession | undefined,
  store: SessionViewStore,
): AgentsPanelControls {
  const [mode, setMode] = useState<PanelMode>("auto");
  const [focusedRaw, setFocused] = useState(false);
  const [openRaw, setOpenAgent] = useState<string | undefined>(undefined);
  const [steer, setSteer] = useState<SteerRequest | undefined>(undefined);

  useTeamsAtOpen(session, store);
  const teams = useSessionView(store, (view) => view.teams);
  const hasAgents = useSessionView(store, (view) => view.tree.roots.length > 0);
  const openAgent = useSessionView(store, (view) =>
    openRaw !== undefined && view.tree.nodes[openRaw] ? openRaw : undefined,
  );
  const hasContent = hasAgents || (teams?.teams.length ?? 0) > 0;
  const visible = mode === "shown" || (mode === "auto" && hasContent);
  const focused = visible && focusedRaw && steer === undefined;

  const record = useCallback((action: AgentInputAction) => store.push(action), [store]);
  const nextPrompt = useCallback(() => {
    store.push({ type: "finished-agents-cleared" });
    setMode("auto");
  }, [store]);

  const show = useCallback(() => {
    setMode("shown");
    setFocused(true);
  }, []);
  const hide = useCallback(() => {
    setMode("hidden");
    setFocused(false);
    setOpenAgent(undefined);
    setSteer(undefined);
  }, []);

  return {
    store,
    teams,
    visible,
    focused,
    openAgent,
    steer,
    record,
    nextPrompt,
    hasContent,
    toggleFocus: () => (focused ? hide() : hasContent ? show() : undefined),
    toggleVisible: () => (visible ? hide() : hasContent ? show() : undefined),
    blur: () => setFocused(false),
    open: setOpenAgent,
    startSteer: setSteer,
    endSteer: () => {
      setSteer(undefined);
      setFocused(true);
    },
    decided: (agentId) => store.push({ type: "agent-worktree-decided", agentId }),
  };
}

/** The footer's hints while the panel (or text for an agent) has the keys; undefined otherwise. */
export function panelFooterMode(panel: AgentsPanelControls): "steer" | "agent" | "agents" | undefined {
  if (panel.steer) return "steer";
  if (!panel.focused) return undefined;
  return panel.openAgent === undefined ? "agents" : "agent";
}

/**
 * The teams as they are when a session opens (a team it joined from the command line, one run by
 * other processes): read once; every change after that arrives as core's `team-state` events.
 */
function useTeamsAtOpen(session: OpenedSession | undefined, store: SessionViewStore): void {
  useEffect(() => {
    const agents = session?.agents;
    if (!agents?.enabled) return;
    let stopped = false;
    agents
      .teams()
      .then((snapshot: TeamSnapshot | undefined) => {
        // An event that came first is newer than this read (the view keeps it).
        if (!stopped && snapshot) store.push({ type: "teams-read", teams: snapshot });
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [session, store]);
}
