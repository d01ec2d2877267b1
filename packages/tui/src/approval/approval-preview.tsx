import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { Box, Text } from "ink";
import { computeUnifiedDiff } from "../diff/compute-diff.js";
import { DiffView } from "../diff/diff-view.js";
import { containsDiff, diffPart } from "../diff/parse-unified-diff.js";
import { useTheme } from "../theme/theme-context.js";
import { describeAgentToolInput } from "../tools/describe-agent-tools.js";
import type { ApprovalRequestView } from "./approval-types.js";

/** Diff rows shown in the dialog before the rest collapses. */
const PREVIEW_DIFF_LINES = 16;
/** Lines of a plain-text preview shown. */
const PREVIEW_TEXT_LINES = 12;

function field(input: unknown, key: string): string | undefined {
  const value =
    typeof input === "object" && input !== null ? (input as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? value : undefined;
}

/** Files larger than this are not read for the preview (the diff of the strings is shown). */
const PREVIEW_FILE_BYTES = 1_000_000;

/**
 * The file as the edit would leave it, so the dialog shows whole lines (`colour: blue` →
 * `colour: green`, not `blue` → `green`); undefined when the file cannot be read or the text to
 * replace is not in it once (the tool will say why when it runs).
 */
function editedFile(request: ApprovalRequestView, oldText: string, newText: string) {
  const path = field(request.input, "file_path") ?? field(request.input, "path");
  if (path === undefined || (!isAbsolute(path) && request.cwd === undefined)) return undefined;
  try {
    const absolute = isAbsolute(path) ? path : resolve(request.cwd!, path);
    if (statSync(absolute).size > PREVIEW_FILE_BYTES) return undefined;
    const before = readFileSync(absolute, "utf8");
    const all = (request.input as { replace_all?: unknown }).replace_all === true;
    const count = oldText === "" ? 0 : before.split(oldText).length - 1;
    if (count === 0 || (count > 1 && !all)) return undefined;
    const after = all ? before.split(oldText).join(newText) : before.replace(oldText, () => newText);
    return { before, after };
  } catch {
    return undefined;
  }
}

/** The diff an edit or write would make: from the preview if it carries one, else from the input. */
export function previewDiff(request: ApprovalRequestView): string | undefined {
  if (request.preview && containsDiff(request.preview)) return diffPart(request.preview);
  const oldText = field(request.input, "old_string");
  const newText = field(request.input, "new_string");
  if (oldText !== undefined && newText !== undefined) {
    const file = editedFile(request, oldText, newText);
    return file ? computeUnifiedDiff(file.before, file.after) : computeUnifiedDiff(oldText, newText);
  }
  const content = field(request.input, "content");
  if (request.tool === "write" && content !== undefined) return computeUnifiedDiff("", content);
  return undefined;
}

function PlainPreview({ text }: { text: string }) {
  const theme = useTheme();
  const lines = text.split("\n");
  const shown = lines.slice(0, PREVIEW_TEXT_LINES);
  return (
    <Box flexDirection="column">
      {shown.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their position
        <Text key={index} wrap="truncate-end">
          {line === "" ? " " : line}
        </Text>
      ))}
      {lines.length > shown.length ? (
        <Text color={theme.subtle}>… +{lines.length - shown.length} lines</Text>
      ) : null}
    </Box>
  );
}

/**
 * What the call would do: the diff of an edit or write, the command of `bash` with its working
 * directory, the path of a file tool, else the tool's own preview or its arguments.
 */
export function ApprovalPreview({ request }: { request: ApprovalRequestView }) {
  const theme = useTheme();
  const command = field(request.input, "command");
  if (request.tool === "bash" && command !== undefined) {
    const description = field(request.input, "description");
    return (
      <Box flexDirection="column">
        <Text>
          <Text color={theme.accent}>$ </Text>
          {command}
        </Text>
        {request.cwd ? <Text color={theme.muted}>in {request.cwd}</Text> : null}
        {description ? <Text color={theme.muted}># {description}</Text> : null}
      </Box>
    );
  }
  const path = field(request.input, "file_path") ?? field(request.input, "path");
  const diff = previewDiff(request);
  if (diff !== undefined) {
    return <DiffView diff={diff} path={path ?? ""} maxLines={PREVIEW_DIFF_LINES} />;
  }
  if (path !== undefined && !request.preview) return <Text bold>{path}</Text>;
  const described = describeAgentToolInput(request.tool, request.input);
  return (
    <PlainPreview text={request.preview || described || JSON.stringify(request.input ?? {}, null, 1) || ""} />
  );
}
