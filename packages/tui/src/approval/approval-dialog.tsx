import { Box, Text } from "ink";
import { useState } from "react";
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
}

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
 */
export function ApprovalDialog({ requests, onAnswer, isActive = true }: ApprovalDialogProps) {
  const request = requests[0];
  if (!request) return null;
  // Keyed by request: the next request starts on a fresh choice with an empty reason.
  return (
    <ApprovalCard
      key={request.id}
      request={request}
      position={{ index: 1, total: requests.length }}
      onAnswer={onAnswer}
      isActive={isActive}
    />
  );
}

interface CardProps {
  request: ApprovalRequestView;
  position: { index: number; total: number };
  onAnswer: ApprovalDialogProps["onAnswer"];
  isActive: boolean;
}

function ApprovalCard({ request, position, onAnswer, isActive }: CardProps) {
  const theme = useTheme();
  const [selected, setSelected] = useState(0);
  const [reason, setReason] = useState<TextBuffer | undefined>(undefined);
  const [answered, setAnswered] = useState(false);

  const answer = (decision: ApprovalDecision) => {
    if (answered) return;
    setAnswered(true);
    onAnswer(request, decision);
  };

  const choose = (index: number) => {
    if (index === 0) answer({ approved: true });
    else if (index === 1) answer({ approved: true, always: true });
    else setReason(EMPTY_BUFFER);
  };

  const onReasonKey = (key: Keypress, buffer: TextBuffer) => {
    if (key.name === "return") {
      const text = buffer.text.trim();
      answer(text === "" ? { approved: false } : { approved: false, reason: text });
    } else if (key.name === "escape") answer({ approved: false });
    else if (key.name === "backspace") setReason(deleteBackward(buffer));
    else if (key.name === "delete") setReason(deleteForward(buffer));
    else if (key.name === "left") setReason(moveLeft(buffer));
    else if (key.name === "right") setReason(moveRight(buffer));
    else if (key.name === "home") setReason(moveLineStart(buffer));
    else if (key.name === "end") setReason(moveLineEnd(buffer));
    else if (isPlainText(key)) setReason(insertText(buffer, key.text.replace(/\n/g, " ")));
  };

  useKeypress(
    (key) => {
      if (reason !== undefined) return onReasonKey(key, reason);
      const letter = key.name === "text" && !key.ctrl && !key.meta ? key.text.toLowerCase() : "";
      const shortcut = CHOICES.findIndex((choice) => choice.key === letter);
      if (shortcut >= 0) choose(shortcut);
      else if (key.name === "left") setSelected((index) => (index + CHOICES.length - 1) % CHOICES.length);
      else if (key.name === "right" || key.name === "tab")
        setSelected((index) => (index + 1) % CHOICES.length);
      else if (key.name === "return") choose(selected);
      else if (key.name === "escape") answer({ approved: false });
    },
    { isActive: isActive && !answered },
  );

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
      {reason === undefined ? (
        <Text>
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
