import { relative } from "node:path";
import type { OpenedSession, RewindPlan } from "@nyzhi/core";
import { type MutableRefObject, useCallback, useRef } from "react";
import type { InputEditorHandle } from "../input/input-editor.js";
import type { TranscriptInput } from "../transcript/transcript-types.js";
import type { PickerSpec } from "./picker.js";
import { replayThread } from "./replay-thread.js";

/** Two Esc presses on an empty input within this many ms open the rewind list. */
export const DOUBLE_ESCAPE_MS = 800;

export interface RewindOptions {
  session: OpenedSession | undefined;
  busy: boolean;
  dispatch: (input: TranscriptInput) => void;
  say: (message: string, tone?: "info" | "warning") => void;
  openPicker: (picker: PickerSpec) => void;
  editor: MutableRefObject<InputEditorHandle | undefined>;
}

function firstLine(text: string): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > 70 ? `${line.slice(0, 69)}…` : line;
}

/** What confirming will do, said before the person confirms. */
export function describeRewind(plan: RewindPlan, projectRoot: string): string {
  const shown = (path: string) => relative(projectRoot, path) || path;
  const lines = [
    `Rewind to "${firstLine(plan.prompt.text)}": ${plan.messages} message(s) leave the thread${
      plan.laterPrompts > 0 ? `, with ${plan.laterPrompts} later prompt(s)` : ""
    }.`,
  ];
  if (plan.files.length > 0)
    lines.push(
      `Undoes the file changes made since: ${plan.files.map((file) => `${file.action} ${shown(file.path)}`).join(", ")}.`,
    );
  else lines.push("No file changes to undo.");
  for (const kept of plan.cannotUndo) lines.push(`Cannot undo ${shown(kept.path)}: ${kept.reason}.`);
  if (plan.fromEarlierRun)
    lines.push("File changes made by an earlier run of this session stay (/undo takes those back).");
  return lines.join("\n");
}

/**
 * Rewind and edit: Esc twice on an empty input (or `/rewind`) lists the session's earlier
 * prompts; picking one shows what will be undone and asks; confirming rewinds the session (core
 * drops the later turns and undoes their file changes), redraws the transcript and puts the
 * prompt's text in the input.
 */
export function useRewind(options: RewindOptions): { open: () => void; pressEscape: () => void } {
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const lastEscapeAt = useRef(0);

  const confirm = useCallback(async (session: OpenedSession, index: number) => {
    const { dispatch, say, editor } = optionsRef.current;
    try {
      const result = await session.rewind(index);
      dispatch({ type: "transcript-cleared" });
      for (const input of replayThread(session.record.messages)) dispatch(input);
      const undone =
        result.undo?.restored.map(
          (entry) => `${entry.action} ${relative(session.projectRoot, entry.path)}`,
        ) ?? [];
      const failed =
        result.undo?.failed.map((entry) => `could not undo ${entry.path}: ${entry.reason}`) ?? [];
      say(
        [
          `Rewound. ${undone.length > 0 ? `Undone: ${undone.join(", ")}.` : "No files to undo."}`,
          ...failed,
        ].join("\n"),
        failed.length > 0 ? "warning" : "info",
      );
      editor.current?.insert(result.text);
    } catch (error) {
      say(error instanceof Error ? error.message : String(error), "warning");
    }
  }, []);

  const open = useCallback(() => {
    const { session, busy, say, openPicker } = optionsRef.current;
    if (!session) return;
    if (busy) return say("A turn is running: interrupt it (Esc) before rewinding.", "warning");
    const prompts = session.prompts();
    if (prompts.length === 0) return say("Nothing to rewind to: no prompt was sent in this session yet.");
    openPicker({
      title:
        "Rewind to which prompt? It and everything after it leave the thread; its text comes back to edit.",
      items: [...prompts].reverse().map((prompt) => ({
        label: firstLine(prompt.text) || "(images only)",
        value: String(prompt.index),
      })),
      onPick(value) {
        const index = Number(value);
        const plan = session.planRewind(index);
        say(describeRewind(plan, session.projectRoot));
        // After the list has closed (the picker closes itself once this returns).
        queueMicrotask(() =>
          optionsRef.current.openPicker({
            title: "Rewind?",
            items: [
              {
                label:
                  plan.files.length > 0 ? `Rewind and undo ${plan.files.length} file change(s)` : "Rewind",
                value: "yes",
              },
              { label: "Cancel", value: "no" },
            ],
            onPick: (answer) => (answer === "yes" ? confirm(session, index) : undefined),
          }),
        );
      },
    });
  }, [confirm]);

  const pressEscape = useCallback(() => {
    const now = Date.now();
    if (now - lastEscapeAt.current <= DOUBLE_ESCAPE_MS) {
      lastEscapeAt.current = 0;
      open();
    } else lastEscapeAt.current = now;
  }, [open]);

  return { open, pressEscape };
}
