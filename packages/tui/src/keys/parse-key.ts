/**
 * Names of the keys the components react to. `text` is printable input (one key or a whole
 * pasted chunk); `linefeed` is Ctrl+J (`\n`); `paste-start`/`paste-end` frame a bracketed paste.
 */
export type KeyName =
  | "text"
  | "return"
  | "linefeed"
  | "escape"
  | "tab"
  | "backspace"
  | "delete"
  | "up"
  | "down"
  | "left"
  | "right"
  | "home"
  | "end"
  | "pageup"
  | "pagedown"
  | "paste-start"
  | "paste-end"
  | "unknown";

/**
 * One key press, parsed from the raw sequence the terminal sent. Unlike ink's `useInput`, the
 * Backspace key (`\x7f`) and Delete (`\x1b[3~`) are told apart, and Shift/Alt+Enter are reported
 * for the encodings terminals actually use (kitty `CSI 13;2u`, xterm `CSI 27;2;13~`, `ESC CR`).
 */
export interface Keypress {
  name: KeyName;
  /** Printable text for `text`; the letter for Ctrl/Alt+letter; "" otherwise. */
  text: string;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
  sequence: string;
}

const CSI_KEYS: Readonly<Record<string, KeyName>> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  "1~": "home",
  "7~": "home",
  "4~": "end",
  "8~": "end",
  "3~": "delete",
  "5~": "pageup",
  "6~": "pagedown",
  "200~": "paste-start",
  "201~": "paste-end",
};

const CODEPOINT_KEYS: Readonly<Record<number, KeyName>> = {
  9: "tab",
  13: "return",
  27: "escape",
  127: "backspace",
};

function key(name: KeyName, sequence: string, extra: Partial<Keypress> = {}): Keypress {
  return { name, text: "", ctrl: false, meta: false, shift: false, sequence, ...extra };
}

/** Decodes a modifier parameter (1 + bits: 1 shift, 2 alt, 4 ctrl, 8 meta). */
function modifiers(parameter: string | undefined): Pick<Keypress, "ctrl" | "meta" | "shift"> {
  const bits = Math.max(0, Number(parameter ?? "1") - 1);
  return { shift: (bits & 1) !== 0, meta: (bits & 10) !== 0, ctrl: (bits & 4) !== 0 };
}

function fromCodePoint(
  code: number,
  sequence: string,
  mods: Pick<Keypress, "ctrl" | "meta" | "shift">,
): Keypress {
  const named = CODEPOINT_KEYS[code];
  if (named) return key(named, sequence, mods);
  const character = String.fromCodePoint(code);
  if (mods.ctrl || mods.meta) return key("text", sequence, { ...mods, text: character.toLowerCase() });
  return key("text", sequence, { ...mods, text: mods.shift ? character.toUpperCase() : character });
}

function parseEscape(sequence: string): Keypress {
  if (sequence === "\x1b" || sequence === "\x1b\x1b") return key("escape", sequence);
  if (sequence === "\x1b\r") return key("return", sequence, { meta: true });
  if (sequence === "\x1b\n") return key("linefeed", sequence, { meta: true });
  if (sequence === "\x1b\x7f" || sequence === "\x1b\b") return key("backspace", sequence, { meta: true });
  if (sequence === "\x1b[Z") return key("tab", sequence, { shift: true });
  const kitty = /^\x1b\[(\d+)(?::\d+)*(?:;(\d+)(?::\d+)?)?u$/.exec(sequence);
  if (kitty) return fromCodePoint(Number(kitty[1]), sequence, modifiers(kitty[2]));
  const otherKeys = /^\x1b\[27;(\d+);(\d+)~$/.exec(sequence);
  if (otherKeys) return fromCodePoint(Number(otherKeys[2]), sequence, modifiers(otherKeys[1]));
  const csi = /^\x1b(?:\[|O)(?:1;)?(\d*)([A-DHF])$/.exec(sequence);
  if (csi) return key(CSI_KEYS[csi[2]!]!, sequence, modifiers(csi[1] || undefined));
  const tilde = /^\x1b\[(\d+)(?:;(\d+))?~$/.exec(sequence);
  if (tilde) {
    const name = CSI_KEYS[`${tilde[1]}~`];
    return name ? key(name, sequence, modifiers(tilde[2])) : key("unknown", sequence);
  }
  const rest = sequence.slice(1);
  if ([...rest].length === 1 && rest >= " ") return key("text", sequence, { meta: true, text: rest });
  return key("unknown", sequence);
}

/** Parses one key sequence as ink's input parser splits them (escape sequences stay whole). */
export function parseKey(sequence: string): Keypress {
  if (sequence.startsWith("\x1b")) return parseEscape(sequence);
  if (sequence === "\r") return key("return", sequence);
  if (sequence === "\n") return key("linefeed", sequence);
  if (sequence === "\t") return key("tab", sequence);
  if (sequence === "\x7f" || sequence === "\b") return key("backspace", sequence);
  if (sequence.length === 1) {
    const code = sequence.charCodeAt(0);
    if (code === 0) return key("text", sequence, { ctrl: true, text: " " });
    if (code <= 26) return key("text", sequence, { ctrl: true, text: String.fromCharCode(code + 96) });
    if (code < 32) return key("unknown", sequence);
  }
  return key("text", sequence, { text: sequence });
}

/** Whether the key is Ctrl+<letter> (e.g. `isCtrl(key, "r")`). */
export function isCtrl(keypress: Keypress, letter: string): boolean {
  return keypress.ctrl && !keypress.meta && keypress.name === "text" && keypress.text === letter;
}

/** Whether the key inserts a newline in a multi-line editor: Ctrl+J, Shift/Alt/Meta+Enter. */
export function isNewlineKey(keypress: Keypress): boolean {
  if (keypress.name === "linefeed") return true;
  return keypress.name === "return" && (keypress.shift || keypress.meta);
}

/** Plain printable text: no Ctrl or Alt held. */
export function isPlainText(keypress: Keypress): boolean {
  return keypress.name === "text" && !keypress.ctrl && !keypress.meta && keypress.text !== "";
}
