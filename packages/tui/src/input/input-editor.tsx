import { Box, Text } from "ink";
import { type MutableRefObject, useRef, useState } from "react";
import type { SlashCommand } from "../commands/command-registry.js";
import { CompletionList } from "../commands/completion-list.js";
import type { Keypress } from "../keys/parse-key.js";
import { useKeypress } from "../keys/use-keypress.js";
import { useTheme } from "../theme/theme-context.js";
import { BufferText } from "./buffer-text.js";
import {
  attachImage,
  type EditorContext,
  type EditorState,
  editorKey,
  INITIAL_EDITOR_STATE,
} from "./editor-state.js";
import type { FileSource } from "./input-completion.js";
import { bufferOf } from "./text-buffer.js";

export const DEFAULT_PLACEHOLDER = "Ask anything… (/ for commands, @ for files)";

export interface InputEditorProps {
  /** The text to send: pasted chips expanded, never blank. */
  /** `display`: what the transcript shows (large pastes as their chips), when it differs. */
  /** `images`: paths of the image chips attached (pasted, dropped). */
  onSubmit: (text: string, display?: string, images?: string[]) => void;
  /** Whether a paste is an image file to attach as a chip (see `EditorContext.imageOfPaste`). */
  imageOfPaste?: ((pasted: string) => string | undefined) | undefined;
  /**
   * Esc the editor did not use (a turn is running, or the input is empty): e.g. interrupt.
   * `double`: two presses that arrived together.
   */
  onEscape?: ((double: boolean) => void) | undefined;
  /** Sent prompts, oldest first (`InputHistory.entries`). */
  history?: readonly string[] | undefined;
  /** Commands for `/` completion. */
  commands?: readonly SlashCommand<unknown>[] | undefined;
  /** Project files for `@` completion. */
  files?: FileSource | undefined;
  /** A turn is running: the border dims and Esc goes to `onEscape`. */
  busy?: boolean | undefined;
  isActive?: boolean | undefined;
  placeholder?: string | undefined;
  /** Rows of the completion popup. Default 8. */
  maxCompletions?: number | undefined;
  /** Filled with what the app may ask of the editor (see `InputEditorHandle`). */
  handle?: MutableRefObject<InputEditorHandle | undefined> | undefined;
}

/** The editor seen from the app: whether the person is typing, and a way to hand it keys. */
export interface InputEditorHandle {
  /** The text in the input now. */
  text(): string;
  /** When the editor last took a key (`Date.now()`), 0 before the first. */
  lastKeyAt(): number;
  /** Handles `key` as if typed here (keys typed at a dialog that were meant for the input). */
  feed(key: Keypress): void;
  /** Puts `text` back into the input, before what is there (queued prompts of an interrupted turn). */
  insert(text: string): void;
  /** Replaces the input's text (`/editor` brings back what was composed there). */
  replace(text: string): void;
  /** Attaches the image at `path` as a chip at the cursor (a pasted clipboard image). */
  attachImage(path: string): void;
}

/**
 * The prompt editor: multi-line (Ctrl+J, Alt+Enter, or Shift+Enter where the terminal reports
 * it; a trailing `\` + Enter too), a cursor that moves by grapheme, readline keys, history on
 * ↑/↓ and Ctrl+R, `/` and `@` completion, large pastes collapsed to a chip, Esc to clear.
 * Controlled by callbacks only: it knows nothing of the agent.
 */
export function InputEditor(props: InputEditorProps) {
  const theme = useTheme();
  const [state, setState] = useState<EditorState>(INITIAL_EDITOR_STATE);
  const current = useRef(state);
  const propsRef = useRef(props);
  propsRef.current = props;

  const lastKeyAt = useRef(0);
  const onKey = (key: Keypress) => {
    lastKeyAt.current = Date.now();
    const latest = propsRef.current;
    const context: EditorContext = {
      history: latest.history ?? [],
      commands: latest.commands,
      files: latest.files,
      busy: latest.busy ?? false,
      imageOfPaste: latest.imageOfPaste,
    };
    const step = editorKey(current.current, key, context);
    if (step.state !== current.current) {
      current.current = step.state;
      setState(step.state);
    }
    if (step.effect?.type === "submit") {
      // The Enter that sends the prompt ends the typing: a dialog that opens after it, before
      // another key, takes the keys (keys typed after it count again).
      lastKeyAt.current = 0;
      const { text, display, images } = step.effect;
      if (images !== undefined) latest.onSubmit(text, display ?? text, images);
      else if (display === undefined) latest.onSubmit(text);
      else latest.onSubmit(text, display);
    } else if (step.effect?.type === "escape") latest.onEscape?.(step.effect.double === true);
  };
  useKeypress(onKey, { isActive: props.isActive !== false });
  if (props.handle) {
    props.handle.current = {
      text: () => current.current.buffer.text,
      lastKeyAt: () => lastKeyAt.current,
      feed: onKey,
      insert: (text) => {
        const existing = current.current.buffer.text;
        const joined = existing === "" ? text : `${text}\n${existing}`;
        current.current = { ...current.current, buffer: bufferOf(joined) };
        setState(current.current);
      },
      replace: (text) => {
        current.current = { ...current.current, buffer: bufferOf(text) };
        setState(current.current);
      },
      attachImage: (path) => {
        const latest = propsRef.current;
        current.current = attachImage(current.current, path, {
          history: latest.history ?? [],
          commands: latest.commands,
          files: latest.files,
          busy: latest.busy ?? false,
        });
        setState(current.current);
      },
    };
  }

  const borderColor = props.busy ? theme.subtle : state.buffer.text === "" ? theme.border : theme.accent;
  const history = props.history ?? [];
  const match = state.search?.match === undefined ? undefined : history[state.search.match];
  return (
    <Box flexDirection="column">
      <Box borderStyle="round" borderColor={borderColor} paddingX={1} flexDirection="column">
        {state.search ? (
          <Text wrap="truncate-end">
            <Text color={theme.muted}>(reverse-i-search) </Text>
            <Text color={theme.accent}>{state.search.query}</Text>
            <Text inverse> </Text>
            <Text color={theme.muted}>: </Text>
            {match === undefined ? (
              <Text color={theme.subtle}>{state.search.query === "" ? "type to search" : "no match"}</Text>
            ) : (
              match.split("\n")[0]
            )}
          </Text>
        ) : (
          <BufferText
            buffer={state.buffer}
            prompt="› "
            placeholder={props.placeholder ?? DEFAULT_PLACEHOLDER}
            focused={props.isActive !== false}
          />
        )}
      </Box>
      {state.completion ? (
        <CompletionList
          entries={state.completion.candidates}
          selected={state.completion.selected}
          maxVisible={props.maxCompletions ?? 8}
        />
      ) : null}
    </Box>
  );
}
