import { mkdir, readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { writeFileAtomic } from "@nyzhi/config";
import type { ModelMessage } from "@nyzhi/provider";
import { TODO_STATUSES, type TodoItem, type TodoStatus, type TodoUpdate } from "../planning/todo-store.js";
import { git } from "../worktrees/git-command.js";

/** Where handoff notes go, from the project root. */
export const HANDOFF_DIRECTORY = ".nyzhi";
const HANDOFF_FILE = /^handoff-\d{8}-\d{6}\.md$/;
/** How many of the last messages a handoff quotes, and how much of each. */
const LAST_MESSAGES = 10;
const MESSAGE_CHARS = 200;

/** What a handoff note records: enough for another session (or person) to pick the work up. */
export interface HandoffInput {
  projectRoot: string;
  providerId: string;
  modelId: string;
  todos: readonly TodoItem[];
  messages: readonly ModelMessage[];
  /** Files this session changed (absolute or relative paths). */
  changedFiles: readonly string[];
  /** Share of the context window in use, 0–100, when known. */
  contextPercent?: number | undefined;
  now?: Date | undefined;
}

/** The text parts of a message, joined (tool calls and results left out). */
export function messageText(message: ModelMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (part && typeof part === "object" && part.type === "text" ? part.text : ""))
    .filter(Boolean)
    .join("\n");
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function stamp(now: Date): string {
  const iso = now.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, "")}-${iso.slice(11, 19).replace(/:/g, "")}`;
}

async function currentBranch(root: string): Promise<string> {
  const result = await git(root, ["rev-parse", "--abbrev-ref", "HEAD"]).catch(() => undefined);
  return result && result.code === 0 ? result.stdout.trim() : "(not a git repository)";
}

/** Questions the assistant asked in its last answers: the sentences ending in `?`. */
function openQuestions(messages: readonly ModelMessage[]): string[] {
  const answers = messages.filter((message) => message.role === "assistant").slice(-3);
  const questions = answers.flatMap((message) =>
    (messageText(message).match(/[^.!?\n]*\?/g) ?? []).map((question) => question.trim()),
  );
  return [...new Set(questions.filter((question) => question.length > 3))];
}

/** The handoff note as Markdown; its todo lines are what `/resume-work` restores. */
export function formatHandoff(input: HandoffInput & { branch: string }): string {
  const now = input.now ?? new Date();
  const recent = input.messages
    .filter((message) => message.role === "user" || message.role === "assistant")
    .map((message) => ({ role: message.role, text: messageText(message) }))
    .filter((message) => message.text.trim() !== "")
    .slice(-LAST_MESSAGES);
  const questions = openQuestions(input.messages);
  const open = input.todos.filter((todo) => todo.status === "pending" || todo.status === "in_progress");
  return [
    `# Handoff — ${now.toISOString().slice(0, 19).replace("T", " ")} UTC`,
    "",
    `- Project: ${input.projectRoot}`,
    `- Branch: ${input.branch}`,
    `- Model: ${input.providerId}/${input.modelId}`,
    ...(input.contextPercent !== undefined ? [`- Context used: ${Math.round(input.contextPercent)}%`] : []),
    "",
    "## Todos",
    ...(input.todos.length > 0
      ? input.todos.map((todo) => `- [${todo.status}] ${oneLine(todo.content, 500)} (id ${todo.id})`)
      : ["- none"]),
    "",
    "## Last messages",
    ...(recent.length > 0
      ? recent.map((message) => `- ${message.role}: ${oneLine(message.text, MESSAGE_CHARS)}`)
      : ["- none"]),
    "",
    "## Open questions",
    ...(questions.length > 0 || open.length > 0
      ? [
          ...questions.map((question) => `- ${oneLine(question, MESSAGE_CHARS)}`),
          ...open.map((todo) => `- still to do: ${oneLine(todo.content, MESSAGE_CHARS)}`),
        ]
      : ["- none recorded"]),
    "",
    "## Changed files",
    ...(input.changedFiles.length > 0
      ? input.changedFiles.map((path) => `- ${relative(input.projectRoot, path) || path}`)
      : ["- none"]),
    "",
  ].join("\n");
}

/** Writes `.nyzhi/handoff-YYYYMMDD-HHMMSS.md` (atomically) and returns its path. */
export async function writeHandoff(input: HandoffInput): Promise<string> {
  const now = input.now ?? new Date();
  const directory = join(input.projectRoot, HANDOFF_DIRECTORY);
  await mkdir(directory, { recursive: true });
  const path = join(directory, `handoff-${stamp(now)}.md`);
  const branch = await currentBranch(input.projectRoot);
  await writeFileAtomic(path, formatHandoff({ ...input, now, branch }));
  return path;
}

/** The todo lines of a handoff note, as updates for a todo store. */
export function parseHandoffTodos(text: string): TodoUpdate[] {
  const section = text.split(/^## /m).find((part) => part.startsWith("Todos"));
  if (!section) return [];
  const todos: TodoUpdate[] = [];
  for (const line of section.split("\n")) {
    const match = /^- \[([a-z_]+)\] (.*?)(?: \(id ([^)]+)\))?$/.exec(line.trim());
    if (!match || !TODO_STATUSES.includes(match[1] as TodoStatus)) continue;
    todos.push({
      id: match[3] ?? `handoff-${todos.length + 1}`,
      content: match[2] ?? "",
      status: match[1] as TodoStatus,
    });
  }
  return todos;
}

/** The newest handoff note of the project, if any. */
export async function newestHandoff(
  projectRoot: string,
): Promise<{ path: string; text: string } | undefined> {
  const directory = join(projectRoot, HANDOFF_DIRECTORY);
  const names = (await readdir(directory).catch(() => [] as string[])).filter((name) =>
    HANDOFF_FILE.test(name),
  );
  const newest = names.sort().at(-1);
  if (!newest) return undefined;
  const path = join(directory, newest);
  return { path, text: await readFile(path, "utf8") };
}

/** What `/resume-work` sends: the handoff note and how to go on from it. */
export function resumeWorkPrompt(path: string, text: string): string {
  return [
    `Resume the work described in this handoff note (${path}). Its todos are restored in your todo list.`,
    "Check the current state of the files first, then continue with the first unfinished todo.",
    "",
    text.trim(),
  ].join("\n");
}
