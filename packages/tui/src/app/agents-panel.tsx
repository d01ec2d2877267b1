import type { OpenedSession } from "@nyzhi/core";
import { Box, Text, useStdout } from "ink";
import { AgentTranscript } from "../agents/agent-transcript.js";
import { AgentTree } from "../agents/agent-tree.js";
import { agentName } from "../agents/format-agent.js";
import type { Keypress } from "../keys/parse-key.js";
import { useKeypress } from "../keys/use-keypress.js";
import { type SessionViewStore, useSessionView } from "../session-view/session-view-store.js";
import { useTheme } from "../theme/theme-context.js";
import { decideAgentChanges } from "./agent-changes.js";
import { copyToClipboard } from "./clipboard.js";
import type { AgentsPanelControls, SteerRequest } from "./use-agents-panel.js";

type Say = (message: string, tone?: "info" | "warning") => void;

export interface AgentsPanelProps {
  panel: AgentsPanelControls;
  session: OpenedSession | undefined;
  /** False while a dialog, the palette or a picker has the keys. */
  isActive: boolean;
  say: Say;
  /** Text typed at the tree that is not the tree's: the panel gives the keys back, and this takes it. */
  onTypeThrough?: ((key: Keypress) => void) | undefined;
}

function report(work: Promise<string>, say: Say): void {
  work.then(
    (message) => say(message),
    (error: unknown) => say(error instanceof Error ? error.message : String(error), "warning"),
  );
}

/**
 * The agents panel in the app: the tree (Enter opens a row's transcript, Esc gives the keys back
 * to the input), or one agent's transcript, whose keys steer that agent through core: `i` and `r`
 * ask for text in the input editor (see `submitSteer`), `x` closes it and its descendants, `c`
 * copies its result (OSC 52), Esc returns to the tree.
 */
export function AgentsPanel({ panel, session, isActive, say, onTypeThrough }: AgentsPanelProps) {
  const { stdout } = useStdout();
  // Its slices of the session view: the lead's tokens do not redraw the panel.
  const tree = useSessionView(panel.store, (view) => view.tree);
  const transcripts = useSessionView(panel.store, (view) => view.agents);
  const keys = isActive && panel.focused;
  useKeypress(
    (key) => {
      if (key.name === "escape") panel.blur();
      // Text that is not the tree's (1–9 picks a row) was meant for the input: it goes there.
      else if (key.name === "text" && !key.ctrl && !key.meta && !/^[1-9]$/.test(key.text)) {
        panel.blur();
        onTypeThrough?.(key);
      }
    },
    { isActive: keys && panel.openAgent === undefined },
  );
  if (!panel.visible) return null;
  const maxDepth = session?.config.agent.agents?.max_depth;
  if (panel.openAgent !== undefined) {
    const agentId = panel.openAgent;
    return (
      <AgentTranscript
        tree={tree}
        agentId={agentId}
        transcript={transcripts[agentId]}
        isActive={keys}
        onSendInput={(id) => panel.startSteer({ kind: "input", agentId: id })}
        onResume={(id) => panel.startSteer({ kind: "resume", agentId: id })}
        onStop={(id) => {
          if (session) report(session.agents.stop(id), say);
        }}
        onCopyResult={(id, result) => {
          copyToClipboard(stdout, result);
          const node = tree.nodes[id];
          say(`Copied ${node ? agentName(node) : id}'s result to the clipboard.`);
        }}
        onWorktree={(id, action) => {
          if (session) report(decideAgentChanges(session, panel, id, action), say);
        }}
        onBack={() => panel.open(undefined)}
      />
    );
  }
  return (
    <AgentTree
      state={tree}
      teams={panel.teams}
      maxDepth={maxDepth}
      isActive={keys}
      onOpen={(id) => panel.open(id)}
    />
  );
}

/** The line above the input while text is typed for an agent: whom it goes to. */
export function SteerPrompt({ panel }: { panel: AgentsPanelControls }) {
  return panel.steer ? <SteerLine store={panel.store} steer={panel.steer} /> : null;
}

function SteerLine({ store, steer }: { store: SessionViewStore; steer: SteerRequest }) {
  const theme = useTheme();
  const node = useSessionView(store, (view) => view.tree.nodes[steer.agentId]);
  const name = node ? agentName(node) : steer.agentId;
  const what = steer.kind === "input" ? `Message to ${name}` : `Resume ${name} with`;
  return (
    <Box>
      <Text color={theme.accent}>{what}</Text>
      <Text color={theme.subtle}> · enter sends · esc cancels</Text>
    </Box>
  );
}

/**
 * The line typed while `panel.steer` is set: sent to that agent (not to the lead), shown in its
 * transcript; the keys go back to the panel.
 */
export function submitSteer(
  panel: AgentsPanelControls,
  session: OpenedSession | undefined,
  text: string,
  say: Say,
): void {
  const steer = panel.steer;
  panel.endSteer();
  if (!steer || !session || !text.trim()) return;
  panel.record({ type: "agent-input", agentId: steer.agentId, text });
  const work =
    steer.kind === "input"
      ? session.agents.send(steer.agentId, text)
      : session.agents.resume(steer.agentId, text);
  report(work, say);
}
