import { isCtrl, isNewlineKey, isPlainText, type Keypress } from "../keys/parse-key.js";
import { type HistorySearch, newerMatch, olderMatch, withQuery } from "./history-search.js";
import {
  applyCompletion,
  type CompletionSources,
  type CompletionState,
  detectCompletion,
} from "./input-completion.js";
import {
  chipImages,
  deleteChipBefore,
  expandChips,
  insertChip,
  insertImageChip,
  isLargePaste,
  type PasteChip,
} from "./paste-chips.js";
import * as edit from "./text-buffer.js";
import { bufferOf, EMPTY_BUFFER, type TextBuffer } from "./text-buffer.js";

/** Everything the input editor remembers between keys. */
export interface EditorState {
  buffer: TextBuffer;
  /** The history entry shown (index into the entries), undefined while editing the draft. */
  historyIndex: number | undefined;
  /** The text being written before ↑ walked into the history. */
  draft: string;
  search: HistorySearch | undefined;
  completion: CompletionState | undefined;
  /** Esc closed the popup for this text; it reopens once the text changes. */
  completionDismissedFor: string | undefined;
  chips: PasteChip[];
  /** Text of a bracketed paste still arriving. */
  pasting: string | undefined;
}

export const INITIAL_EDITOR_STATE: EditorState = {
  buffer: EMPTY_BUFFER,
  historyIndex: undefined,
  draft: "",
  search: undefined,
  completion: undefined,
  completionDismissedFor: undefined,
  chips: [],
  pasting: undefined,
};

export interface EditorContext extends CompletionSources {
  /** Sent prompts, oldest first. */
  history: readonly string[];
  /** A turn is running: Esc is left to the app (to interrupt) instead of clearing the input. */
  busy: boolean;
  /**
   * A paste that is an image file's path (a file dropped on the terminal): the path to attach, or
   * undefined to insert the text as typed (not an image, or the model takes none).
   */
  imageOfPaste?: ((pasted: string) => string | undefined) | undefined;
}

/** What the component must do besides showing the new state. */
export type EditorEffect =
  /** `display`: the text as typed, large pastes as their chips, when it differs from `text`. */
  /** `images`: paths of the image chips sent with it. */
  | { type: "submit"; text: string; display?: string; images?: string[] }
  /** `double`: two Esc presses arrived as one key (`\x1b\x1b`). */
  | { type: "escape"; double?: boolean }
  | undefined;

export interface EditorStep {
  state: EditorState;
  effect?: EditorEffect;
}

/** Sets the text and refreshes the completion popup for it. */
function withBuffer(state: EditorState, buffer: TextBuffer, context: EditorContext): EditorState {
  const dismissed = state.completionDismissedFor === buffer.text ? state.completionDismissedFor : undefined;
  const completion = dismissed === undefined ? detectCompletion(buffer, context) : undefined;
  return { ...state, buffer, completion, completionDismissedFor: dismissed };
}

/** Attaches the image at `path` as a chip at the cursor. */
export function attachImage(state: EditorState, path: string, context: EditorContext): EditorState {
  const attached = insertImageChip(state.buffer, state.chips, path);
  return withBuffer({ ...state, chips: attached.chips }, attached.buffer, context);
}

function insert(state: EditorState, text: string, context: EditorContext): EditorState {
  const image = context.imageOfPaste?.(text);
  if (image !== undefined) return attachImage(state, image, context);
  if (isLargePaste(text)) {
    const pasted = insertChip(state.buffer, state.chips, text);
    return withBuffer({ ...state, chips: pasted.chips }, pasted.buffer, context);
  }
  return withBuffer(state, edit.insertText(state.buffer, text), context);
}

function submit(state: EditorState): EditorStep {
  const images = chipImages(state.buffer.text, state.chips);
  const text = expandChips(state.buffer.text, state.chips);
  if (text.trim() === "" && images.length === 0) return { state };
  const display = text === state.buffer.text ? {} : { display: state.buffer.text };
  const attached = images.length > 0 ? { images } : {};
  return {
    state: INITIAL_EDITOR_STATE,
    effect: { type: "submit", text: images.length > 0 ? text.trim() : text, ...display, ...attached },
  };
}

function walkHistory(state: EditorState, direction: -1 | 1, context: EditorContext): EditorState {
  const entries = context.history;
  if (direction === -1) {
    if (entries.length === 0 || state.historyIndex === 0) return state;
    const index = state.historyIndex === undefined ? entries.length - 1 : state.historyIndex - 1;
    const draft = state.historyIndex === undefined ? state.buffer.text : state.draft;
    return { ...state, historyIndex: index, draft, buffer: bufferOf(entries[index]!), completion: undefined };
  }
  if (state.historyIndex === undefined) return state;
  const index = state.historyIndex + 1;
  if (index >= entries.length) {
    return { ...state, historyIndex: undefined, buffer: bufferOf(state.draft), completion: undefined };
  }
  // Walking down, the cursor lands on the entry's first line, so ↓ goes on through its lines.
  const entry = entries[index]!;
  const firstLineEnd = entry.indexOf("\n");
  const buffer = firstLineEnd < 0 ? bufferOf(entry) : { text: entry, cursor: firstLineEnd };
  return { ...state, historyIndex: index, buffer, completion: undefined };
}

function searchKey(
  state: EditorState,
  search: HistorySearch,
  key: Keypress,
  context: EditorContext,
): EditorStep {
  const entries = context.history;
  if (key.name === "return") {
    const found = search.match === undefined ? state.buffer : bufferOf(entries[search.match]!);
    return { state: withBuffer({ ...state, search: undefined }, found, context) };
  }
  if (key.name === "escape" || isCtrl(key, "g")) return { state: { ...state, search: undefined } };
  if (isCtrl(key, "r") || key.name === "up")
    return { state: { ...state, search: olderMatch(entries, search) } };
  if (key.name === "down") return { state: { ...state, search: newerMatch(entries, search) } };
  if (key.name === "backspace") {
    return { state: { ...state, search: withQuery(entries, [...search.query].slice(0, -1).join("")) } };
  }
  if (isPlainText(key)) return { state: { ...state, search: withQuery(entries, search.query + key.text) } };
  return { state };
}

function completionKey(
  state: EditorState,
  completion: CompletionState,
  key: Keypress,
  context: EditorContext,
): EditorStep | undefined {
  const count = completion.candidates.length;
  const select = (selected: number) => ({ state: { ...state, completion: { ...completion, selected } } });
  if (key.name === "down") return select((completion.selected + 1) % count);
  if (key.name === "up" || (key.name === "tab" && key.shift))
    return select((completion.selected + count - 1) % count);
  if (key.name === "tab")
    return { state: withBuffer(state, applyCompletion(state.buffer, completion), context) };
  if (key.name === "escape") {
    return { state: { ...state, completion: undefined, completionDismissedFor: state.buffer.text } };
  }
  if (key.name === "return" && !key.shift && !key.meta) {
    const applied = applyCompletion(state.buffer, completion);
    // Enter on a command runs it; on a file it only completes the path.
    if (completion.kind === "command")
      return submit({ ...state, buffer: { ...applied, text: applied.text.trimEnd() } });
    return { state: withBuffer(state, applied, context) };
  }
  return undefined;
}

function editingKey(state: EditorState, key: Keypress, context: EditorContext): EditorStep {
  const buffer = state.buffer;
  const set = (next: TextBuffer) => ({ state: withBuffer(state, next, context) });
  if (isNewlineKey(key)) return set(edit.insertText(buffer, "\n"));
  if (key.name === "return") {
    // A trailing backslash continues the line, for terminals that send Shift+Enter as Enter.
    if (buffer.text.slice(0, buffer.cursor).endsWith("\\")) {
      return set(edit.insertText(edit.deleteBackward(buffer), "\n"));
    }
    return submit(state);
  }
  if (isCtrl(key, "r"))
    return { state: { ...state, search: { query: "", match: undefined }, completion: undefined } };
  if (isCtrl(key, "a")) return set(edit.moveStart(buffer));
  if (isCtrl(key, "e")) return set(edit.moveEnd(buffer));
  if (isCtrl(key, "u")) return set(edit.deleteToLineStart(buffer));
  if (isCtrl(key, "w") || (key.name === "backspace" && (key.meta || key.ctrl)))
    return set(edit.deleteWordBackward(buffer));
  if (key.name === "backspace") {
    const chip = deleteChipBefore(buffer, state.chips);
    if (chip) return { state: withBuffer({ ...state, chips: chip.chips }, chip.buffer, context) };
    return set(edit.deleteBackward(buffer));
  }
  if (key.name === "delete") return set(edit.deleteForward(buffer));
  if (key.name === "left") return set(edit.moveLeft(buffer));
  if (key.name === "right") return set(edit.moveRight(buffer));
  if (key.name === "home") return set(edit.moveLineStart(buffer));
  if (key.name === "end") return set(edit.moveLineEnd(buffer));
  if (key.name === "up") {
    const moved = edit.moveUp(buffer);
    return moved ? { state: { ...state, buffer: moved } } : { state: walkHistory(state, -1, context) };
  }
  if (key.name === "down") {
    const moved = edit.moveDown(buffer);
    return moved ? { state: { ...state, buffer: moved } } : { state: walkHistory(state, 1, context) };
  }
  if (key.name === "escape") {
    if (!context.busy && buffer.text !== "") return { state: { ...INITIAL_EDITOR_STATE } };
    return { state, effect: { type: "escape", ...(key.sequence === "\x1b\x1b" ? { double: true } : {}) } };
  }
  if (isPlainText(key)) return { state: insert(state, key.text, context) };
  return { state };
}

/**
 * The input editor's key handling, as a pure function: the next state and what the app must do
 * (send the text, or take an Esc the editor did not use). Order: a bracketed paste in progress,
 * the Ctrl+R search, the completion popup, then editing.
 */
export function editorKey(state: EditorState, key: Keypress, context: EditorContext): EditorStep {
  if (state.pasting !== undefined) {
    if (key.name === "paste-end")
      return { state: insert({ ...state, pasting: undefined }, state.pasting, context) };
    const text =
      key.name === "return" ? "\n" : key.name === "tab" ? "\t" : key.name === "text" ? key.sequence : "";
    return { state: { ...state, pasting: state.pasting + text } };
  }
  if (key.name === "paste-start") return { state: { ...state, pasting: "" } };
  if (state.search) return searchKey(state, state.search, key, context);
  if (state.completion) {
    const step = completionKey(state, state.completion, key, context);
    if (step) return step;
  }
  return editingKey(state, key, context);
}
