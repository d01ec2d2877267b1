import { describe, expect, it } from "vitest";
import { parseKey } from "../keys/parse-key.js";
import { type EditorContext, type EditorState, editorKey, INITIAL_EDITOR_STATE } from "./editor-state.js";

const context: EditorContext = {
  history: [],
  busy: false,
  imageOfPaste: (pasted) => (pasted.endsWith(".png") ? `/abs/${pasted}` : undefined),
};

function keys(state: EditorState, ...sequences: string[]) {
  let current = state;
  let effect: ReturnType<typeof editorKey>["effect"];
  for (const sequence of sequences) {
    const step = editorKey(current, parseKey(sequence), context);
    current = step.state;
    effect = step.effect;
  }
  return { state: current, effect };
}

describe("image chips in the input", () => {
  it("a pasted image path becomes a chip; Enter sends the text without it and the image's path", () => {
    const { state } = keys(INITIAL_EDITOR_STATE, "what is", "\x1b[200~", "shot.png", "\x1b[201~");
    expect(state.buffer.text).toBe("what is [image shot.png] ");
    const { effect } = keys(state, "?", "\r");
    expect(effect).toEqual({
      type: "submit",
      text: "what is  ?",
      display: "what is [image shot.png] ?",
      images: ["/abs/shot.png"],
    });
  });

  it("Backspace after the chip removes it, and the image with it; other pastes stay text", () => {
    const { state } = keys(
      INITIAL_EDITOR_STATE,
      "\x1b[200~",
      "shot.png",
      "\x1b[201~",
      "\x7f",
      "\x7f",
      "hi",
      "\x1b[200~",
      "notes.txt",
      "\x1b[201~",
    );
    expect(state.buffer.text).toBe("hinotes.txt");
    expect(keys(state, "\r").effect).toEqual({ type: "submit", text: "hinotes.txt" });
  });

  it("two Esc presses in one read are reported as a double Esc on an empty input", () => {
    expect(keys(INITIAL_EDITOR_STATE, "\x1b\x1b").effect).toEqual({ type: "escape", double: true });
    expect(keys(INITIAL_EDITOR_STATE, "\x1b").effect).toEqual({ type: "escape" });
  });
});
