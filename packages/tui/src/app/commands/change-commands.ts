import { relative } from "node:path";
import { formatUndoReport } from "@nyzhi/core";
import { computeUnifiedDiff } from "../../diff/compute-diff.js";
import { parseUnifiedDiff } from "../../diff/parse-unified-diff.js";
import type { BuiltinCommand, CommandContext } from "./command-types.js";

const displayPath = (context: CommandContext) => (path: string) =>
  relative(context.session.projectRoot, path) || path;

/** `/undo [all]`: restores the files the last turn changed (or every turn's). */
export const undoCommand: BuiltinCommand = {
  name: "undo",
  description: "Revert the last change",
  kind: "instant",
  args: "[all]",
  group: "Session",
  run: async (args, context) => {
    if (context.busy) return context.say("Wait for the turn to end (or press Esc) first.", "warning");
    const tracker = context.session.changes;
    const reports =
      args === "all"
        ? await tracker.undoAll()
        : [await tracker.undoLastTurn()].filter((r) => r !== undefined);
    if (reports.length === 0) return context.say("Nothing to undo.");
    context.say(reports.map((report) => formatUndoReport(report, displayPath(context))).join("\n"));
  },
};

/**
 * `/rewind` (also Esc twice on an empty input): pick an earlier prompt; after confirming, it and
 * the later turns leave the thread, their file changes are undone, and its text is in the input.
 */
export const rewindCommand: BuiltinCommand = {
  name: "rewind",
  description: "Go back to an earlier prompt to edit and resend it (undoes later file changes)",
  kind: "instant",
  group: "Session",
  run: (_args, context) => context.rewind(),
};

/**
 * `/checkpoint [save [name] | list | restore <name>]`: a checkpoint starts a new group of changes;
 * restoring one undoes every change made since it was saved.
 */
export const checkpointCommand: BuiltinCommand = {
  name: "checkpoint",
  description: "Save or restore a checkpoint",
  kind: "instant",
  args: "[list|save|restore]",
  group: "Session",
  run: async (args, context) => {
    const tracker = context.session.changes;
    const [verb = "save", ...rest] = args.split(/\s+/).filter(Boolean);
    const name = rest.join(" ");
    if (verb === "list") {
      const turns = tracker.turns();
      if (turns.length === 0) return context.say("No changes recorded yet.");
      return context.say(turns.map((turn) => `${turn.turnId}: ${turn.changes.length} change(s)`).join("\n"));
    }
    if (verb === "restore") {
      if (!name) return context.say("Usage: /checkpoint restore <name> (see /checkpoint list)", "warning");
      if (!tracker.turns().some((turn) => turn.turnId === name)) {
        return context.say(`No changes since a checkpoint named ${name} (see /checkpoint list).`, "warning");
      }
      const lines: string[] = [];
      for (;;) {
        const last = tracker.turns().at(-1);
        if (!last) break;
        const report = await tracker.undoLastTurn();
        if (report) lines.push(formatUndoReport(report, displayPath(context)));
        if (last.turnId === name) break;
      }
      return context.say(lines.join("\n") || "Nothing to undo.");
    }
    if (verb !== "save")
      return context.say("Usage: /checkpoint [save [name] | list | restore <name>]", "warning");
    const id = name || `checkpoint-${new Date().toISOString().slice(11, 19)}`;
    tracker.checkpoint(id);
    context.say(`Checkpoint ${id}: changes from now on can be restored with /checkpoint restore ${id}`);
  },
};

const decoder = new TextDecoder();

/** Each file this session changed, first content to last, as a unified diff with its counts. */
function sessionChanges(context: CommandContext) {
  const byPath = new Map<string, { before: Uint8Array | undefined; after: Uint8Array | undefined }>();
  for (const change of context.session.changes.changes()) {
    const seen = byPath.get(change.path);
    byPath.set(change.path, { before: seen ? seen.before : change.before, after: change.after });
  }
  return [...byPath].map(([path, { before, after }]) => {
    const diff = computeUnifiedDiff(before ? decoder.decode(before) : "", after ? decoder.decode(after) : "");
    const { added, removed } = parseUnifiedDiff(diff);
    const label = before === undefined ? " (new)" : after === undefined ? " (deleted)" : "";
    return { path: displayPath(context)(path), label, diff, added, removed, created: before === undefined };
  });
}

/** `/changes`: the files changed this session, with their added and removed lines. */
export const changesCommand: BuiltinCommand = {
  name: "changes",
  description: "List files changed this session",
  kind: "instant",
  group: "View",
  run: (_args, context) => {
    const files = sessionChanges(context);
    if (files.length === 0) return context.say("No files changed this session.");
    context.say(files.map((file) => `${file.path}${file.label} +${file.added} -${file.removed}`).join("\n"));
  },
};

/** `/diff`: every change of this session as a coloured diff, per file (first content to last). */
export const diffCommand: BuiltinCommand = {
  name: "diff",
  description: "Show every change of this session",
  kind: "instant",
  group: "View",
  run: (_args, context) => {
    const files = sessionChanges(context);
    if (files.length === 0) return context.say("No changes this session.");
    for (const file of files) {
      if (file.diff === "") context.say(`${file.path}${file.label}: no text changes`);
      else context.dispatch({ type: "app-diff", path: file.path, diff: file.diff, created: file.created });
    }
  },
};
