import { Box, Text } from "ink";
import { type MutableRefObject, useCallback, useRef, useState } from "react";
import { BufferText } from "../input/buffer-text.js";
import {
  deleteBackward,
  deleteForward,
  EMPTY_BUFFER,
  insertText,
  moveLeft,
  moveLineEnd,
  moveLineStart,
  moveRight,
  type TextBuffer,
} from "../input/text-buffer.js";
import { isPlainText, type Keypress } from "../keys/parse-key.js";
import { useKeypress } from "../keys/use-keypress.js";
import { useTheme } from "../theme/theme-context.js";
import { ApprovalPreview } from "./approval-preview.js";
import { type ApprovalDecision, type ApprovalRequestView, describeRequester } from "./approval-types.js";

export interface ApprovalDialogProps {
  /** Pending requests in arrival order; the dialog answers the first. */
  requests: readonly ApprovalRequestView[];
  /** Called once per answer; the app then removes that request from `requests`. */
  onAnswer: (request: ApprovalRequestView, decision: ApprovalDecision) => void;
  isActive?: boolean | undefined;
  /**
   * The dialog opened while the person was typing: it is shown but takes no keys (they stay in
   * the input) until the app gives it the keyboard (`ANSWER_KEY_HINT`). It says so on screen.
   */
  held?: boolean | undefined;
  /**
   * Text typed at the dialog that is none of its keys (`/`, a word, a pasted line): typed for the
   * input. The dialog lets go of the keyboard: that key and every later key of the same read go
   * here, and the app hands them to the input. Without it such text is ignored.
   */
  onStray?: ((key: Keypress) => void) | undefined;
}

/** The key that moves the keyboard to a held dialog (bound by the app). */
export const ANSWER_KEY_HINT = "ctrl+g";

const CHOICES = [
  { label: "Allow once", key: "y" },
  { label: "Allow always", key: "a" },
  { label: "Deny", key: "n" },
] as const;

/**
 * Asks the user about the first pending tool call: who asks (the lead, or a subagent's nickname,
 * role and depth), the tool, and a preview of what it would do. `y` allows once, `a` allows for
 * the session, `n` denies and then takes an optional reason (Enter sends it, Esc sends none);
 * ←/→ and Enter pick too. Esc on the choice denies without a reason. "1 of 3" when several wait.
 * Only a single typed letter answers: text for the input (see `onStray`) never does.
 */
export function ApprovalDialog({ requests, onAnswer, isActive = true, held, onStray }: ApprovalDialogProps) {
  const request = requests[0];
  if (!request) return null;
  // Keyed by request: the next request starts on a fresh choice with an empty reason.
  return (
    <ApprovalCard
      key={request.id}
      request={request}
      position={{ index: 1, total: requests.length }}
      onAnswer={onAnswer}
      isActive={isActive && held !== true}
      held={held === true}
      onStray={onStray}
    />
  );
}

interface CardProps {
  request: ApprovalRequestView;
  position: { index: number; total: number };
  onAnswer: ApprovalDialogProps["onAnswer"];
  isActive: boolean;
  held: boolean;
  onStray: ApprovalDialogProps["onStray"];
}

interface CardState {
  selected: number;
  /** The deny reason being typed, once `n` was chosen. */
  reason: TextBuffer | undefined;
  answered: boolean;
  /** Text for the input arrived: the rest of this read goes there too. */
  released: boolean;
}

/**
 * The card's state lives in a ref, so the keys of one read (a paste, `tmux send-keys`, a fast
 * typist: `keep it blue` and Enter together) each see what the previous one did; a re-render
 * only shows it.
 */
function useCardState(): [MutableRefObject<CardState>, (next: Partial<CardState>) => void] {
  const state = useRef<CardState>({ selected: 0, reason: undefined, answered: false, released: false });
  const [, setTick] = useState(0);
  const update = useCallback((next: Partial<CardState>) => {
    state.current = { ...state.current, ...next };
    setTick((tick) => tick + 1);
  }, []);
  return [state, update];
}

function reasonStep(buffer: TextBuffer, key: Keypress): TextBuffer | "send" | "escape" {
  if (key.name === "return") return "send";
  if (key.name === "escape") return "escape";
  if (key.name === "backspace") return deleteBackward(buffer);
  if (key.name === "delete") return deleteForward(buffer);
  if (key.name === "left") return moveLeft(buffer);
  if (key.name === "right") return moveRight(buffer);
  if (key.name === "home") return moveLineStart(buffer);
  if (key.name === "end") return moveLineEnd(buffer);
  if (isPlainText(key)) return insertText(buffer, key.text.replace(/\n/g, " "));
  return buffer;
}

function ApprovalCard({ request, position, onAnswer, isActive, held, onStray }: CardProps) {
  const theme = useTheme();
  const [stateRef, update] = useCardState();
  // Once the app holds the dialog, the keys it let go of are the app's; a later answer key
  // gives them back to a dialog that takes its own keys again.
  if (held && stateRef.current.released) stateRef.current = { ...stateRef.current, released: false };

  const answer = (decision: ApprovalDecision) => {
    update({ answered: true });
    onAnswer(request, decision);
  };

  const choose = (index: number) => {
    if (index === 0) answer({ approved: true });
    else if (index === 1) answer({ approved: true, always: true });
    else update({ reason: EMPTY_BUFFER });
  };

  useKeypress(
    (key) => {
      const current = stateRef.current;
      if (current.answered) return;
      if (current.released) return onStray?.(key);
      if (current.reason !== undefined) {
        const step = reasonStep(current.reason, key);
        if (step === "send") {
          const text = current.reason.text.trim();
          return answer(text === "" ? { approved: false } : { approved: false, reason: text });
        }
        if (step === "escape") return answer({ approved: false });
        return update({ reason: step });
      }
      const letter = isPlainText(key) && [...key.text].length === 1 ? key.text.toLowerCase() : "";
      const shortcut = CHOICES.findIndex((choice) => choice.key === letter);
      if (shortcut >= 0) choose(shortcut);
      else if (isPlainText(key) && onStray) {
        update({ released: true });
        onStray(key);
      } else if (key.name === "left")
        update({ selected: (current.selected + CHOICES.length - 1) % CHOICES.length });
      else if (key.name === "right" || key.name === "tab")
        update({ selected: (current.selected + 1) % CHOICES.length });
      else if (key.name === "return") choose(current.selected);
      else if (key.name === "escape") answer({ approved: false });
    },
    { isActive: isActive && !stateRef.current.answered && !stateRef.current.released },
  );
  const { reason, selected } = stateRef.current;

  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warning} paddingX={1}>
      <Box>
        <Box flexGrow={1} flexShrink={1}>
          <Text>
            <Text bold color={theme.warning}>
              {describeRequester(request.agent)}
            </Text>{" "}
            wants to use <Text bold>{request.tool}</Text>
          </Text>
        </Box>
        {position.total > 1 ? (
          <Box flexShrink={0} marginLeft={1}>
            <Text color={theme.muted}>
              {position.index} of {position.total}
            </Text>
          </Box>
        ) : null}
      </Box>
      <Box marginY={1}>
        <ApprovalPreview request={request} />
      </Box>
      {held ? (
        <Text color={theme.warning}>
          You were typing, so your keys stay in the input. {ANSWER_KEY_HINT}: answer this request
        </Text>
      ) : null}
      {reason === undefined ? (
        <Text dimColor={held}>
          {CHOICES.map((choice, index) => (
            <Text key={choice.key}>
              {index > 0 ? "  " : ""}
              <Text inverse={index === selected} color={index === selected ? theme.accent : ""}>
                {` ${choice.label} (${choice.key}) `}
              </Text>
            </Text>
          ))}
        </Text>
      ) : (
        <Box flexDirection="column">
          <Text color={theme.muted}>Reason for denying (optional):</Text>
          <BufferText buffer={reason} prompt="› " />
          <Text color={theme.subtle}>enter send · esc deny without reason</Text>
        </Box>
      )}
    </Box>
  );
}
