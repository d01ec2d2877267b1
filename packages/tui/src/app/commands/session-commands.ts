import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { resolveDirs, writeFileAtomic } from "@nyzhi/config";
import { exportSessionMarkdown, listModels, SessionStore } from "@nyzhi/core";
import { formatTokens } from "../../status/format-usage.js";
import type { BuiltinCommand } from "./command-types.js";

/** `/clear`: the session is saved as it is (resumable) and a new one starts, with an empty transcript. */
export const clearCommand: BuiltinCommand = {
  name: "clear",
  description: "Clear the transcript and start a new thread",
  kind: "instant",
  group: "Session",
  run: async (_args, context) => {
    if (context.busy) return context.say("Wait for the turn to end (or press Esc) first.", "warning");
    const previous = context.session.id;
    await context.switchSession(undefined);
    context.say(
      `New session. The previous one is saved: nyz -s ${previous.slice(0, 8)} (or /sessions) resumes it.`,
    );
  },
};

/** `/compact [focus]`: summarises the older part of the thread now (the focus guides the summary). */
export const compactCommand: BuiltinCommand = {
  name: "compact",
  description: "Summarize the conversation to free context",
  kind: "prompt",
  args: "[focus]",
  group: "Session",
  run: async (args, context) => {
    if (context.busy)
      return context.say("Compact between turns: wait for the turn to end (or press Esc).", "warning");
    context.say("Compacting the conversation…");
    const result = await context.session.compact(args || undefined);
    const { stats } = result;
    context.say(
      `Compacted: ${stats.messagesSummarised} messages summarised, ${stats.messagesKept} kept; ` +
        `~${formatTokens(stats.before)} → ~${formatTokens(stats.after)} tokens. The full history: ${result.historyPath}`,
    );
  },
};

/** `/context`: where the next request's tokens go (estimates): system prompt, tools, conversation. */
export const contextCommand: BuiltinCommand = {
  name: "context",
  description: "Where the context tokens go",
  kind: "instant",
  group: "Session",
  run: (_args, context) => {
    const { session } = context;
    const usage = session.contextUsage();
    const system = usage.systemTokens;
    const tools = usage.toolTokens;
    const thread = usage.threadTokens;
    const total = system + tools + thread;
    const { providerId, modelId } = session.model;
    const window = listModels(providerId).find((info) => info.id === modelId)?.contextWindow;
    const share = (tokens: number) => (window ? ` (${((tokens / window) * 100).toFixed(1)}%)` : "");
    context.say(
      [
        `Context of the next request (estimated)${window ? `, of ${formatTokens(window)}` : ""}:`,
        `  system prompt  ~${formatTokens(system)}${share(system)}`,
        `  tools          ~${formatTokens(tools)}${share(tools)} (${usage.toolCount} tools)`,
        `  conversation   ~${formatTokens(thread)}${share(thread)} (${usage.messageCount} messages)`,
        `  total          ~${formatTokens(total)}${share(total)}`,
      ].join("\n"),
    );
  },
};

/**
 * `/export [path]`: the session as Markdown, to `path` (from the project's folder) or else to
 * `<data dir>/exports/nyzhi-export-<time>.md`: not into the project, where it would be indexed and
 * fed back to the model as codebase context (the index leaves out `nyzhi-export-*` files too).
 */
export const exportCommand: BuiltinCommand = {
  name: "export",
  description: "Write the session as Markdown (to the data dir unless a path is given)",
  kind: "instant",
  args: "[path]",
  group: "Session",
  run: async (args, context) => {
    const { session } = context;
    await session.save();
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    const path = args
      ? resolve(session.projectRoot, args)
      : join(resolveDirs(context.env).data, "exports", `nyzhi-export-${stamp}.md`);
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, exportSessionMarkdown(session.record));
    context.say(`Exported the session to ${path}`);
  },
};

/** `/sessions [query]`: a picker of saved sessions (this project's first); choosing one resumes it. */
export const sessionsCommand: BuiltinCommand = {
  name: "sessions",
  description: "Pick a session to resume",
  kind: "instant",
  aliases: ["resume"],
  args: "[query]",
  group: "Session",
  run: async (args, context) => {
    if (context.busy) return context.say("Wait for the turn to end (or press Esc) first.", "warning");
    const store = new SessionStore(resolveDirs(context.env).sessions);
    const root = context.session.projectRoot;
    const all = (args ? await store.find(args) : await store.list()).filter(
      (meta) => meta.id !== context.session.id,
    );
    const ordered = [
      ...all.filter((meta) => meta.projectRoot === root),
      ...all.filter((meta) => meta.projectRoot !== root),
    ];
    if (ordered.length === 0) return context.say("No other saved sessions.");
    context.openPicker({
      title: "Resume a session",
      items: ordered.map((meta) => ({
        label: `${meta.id.slice(0, 8)} ${meta.title || "(untitled)"}`,
        description: `${meta.updatedAt.slice(0, 16).replace("T", " ")} · ${meta.messageCount} messages${
          meta.projectRoot && meta.projectRoot !== root ? ` · ${meta.projectRoot}` : ""
        }`,
        value: meta.id,
      })),
      onPick: (id) => context.switchSession({ query: id }),
    });
  },
};
