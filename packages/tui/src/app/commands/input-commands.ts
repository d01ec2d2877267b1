import { authStatus, listModels, openCredentialStore } from "@nyzhi/core";
import type { NotifySettings } from "../use-notify.js";
import type { BuiltinCommand } from "./command-types.js";

/** `/search <text>`: the transcript's lines holding it; Ctrl+N goes to the next, Esc clears. */
export const searchCommand: BuiltinCommand = {
  name: "search",
  description: "Search the transcript (ctrl+n next match, esc clears)",
  kind: "instant",
  args: "<text>",
  group: "Session",
  run: (args, context) => {
    if (!args) return context.say("Usage: /search <text>", "warning");
    context.search(args);
  },
};

/** `/editor`: compose the prompt in `$VISUAL`/`$EDITOR`; the text comes back into the input. */
export const editorCommand: BuiltinCommand = {
  name: "editor",
  description: "Compose the prompt in $VISUAL or $EDITOR",
  kind: "instant",
  group: "System",
  run: (_args, context) => context.composeInEditor(),
};

function describeNotify(settings: NotifySettings): string {
  return `Notify: bell ${settings.bell ? "on" : "off"} · desktop ${settings.desktop ? "on" : "off"} · after turns longer than ${Math.round(settings.afterMs / 1000)} s, and when an approval waits (this session).`;
}

const NOTIFY_USAGE = "Usage: /notify [bell|desktop] [on|off] [after N s]";

/** Reads `/notify` arguments onto `settings`; undefined when they do not parse. */
export function parseNotifyArgs(args: string, settings: NotifySettings): NotifySettings | undefined {
  const words = args.toLowerCase().split(/\s+/).filter(Boolean);
  const next = { ...settings };
  let target: "bell" | "desktop" | undefined;
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    if (word === "bell" || word === "desktop") target = word;
    else if (["on", "off", "true", "false", "1", "0"].includes(word)) {
      const value = word === "on" || word === "true" || word === "1";
      next[target ?? "bell"] = value;
    } else if (word === "after") {
      const seconds = Number((words[index + 1] ?? "").replace(/s$/, ""));
      if (!Number.isFinite(seconds) || seconds < 0) return undefined;
      next.afterMs = Math.round(seconds * 1000);
      index += words[index + 2] === "s" || words[index + 2] === "seconds" ? 2 : 1;
    } else return undefined;
  }
  // `/notify bell` alone turns the bell on.
  if (target && !words.some((word) => ["on", "off", "true", "false", "1", "0"].includes(word)))
    next[target] = true;
  return next;
}

/** `/notify [bell|desktop] [on|off] [after N s]`: how the app calls you back, this session. */
export const notifyCommand: BuiltinCommand = {
  name: "notify",
  description: "Bell or desktop notification when a long turn ends or an approval waits",
  kind: "instant",
  args: "[bell|desktop] [on|off] [after N s]",
  group: "UI",
  run: (args, context) => {
    const next = parseNotifyArgs(args, context.notify.settings());
    if (!next) return context.say(NOTIFY_USAGE, "warning");
    context.notify.update(next);
    context.say(describeNotify(next));
  },
};

/** `/stop`: cancels a running autopilot, interrupts the turn, drops what was queued for it; back to the input. */
export const stopCommand: BuiltinCommand = {
  name: "stop",
  description: "Stop: cancel autopilot, interrupt the turn, clear the queue, back to the input",
  kind: "instant",
  group: "Agent",
  run: async (_args, context) => {
    const dropped = context.queue.clear();
    const running = context.busy;
    const autopilot = context.session.autopilot.running();
    // The cancel is marked before the turn is interrupted, so the phase ends as cancelled.
    const cancelling = autopilot ? context.session.autopilot.cancel() : undefined;
    if (running) context.interrupt();
    const cancelled = await cancelling;
    const what = cancelled ?? (running ? "Stopped the turn." : "Nothing was running.");
    context.say(`${what}${dropped > 0 ? ` Dropped ${dropped} queued message(s).` : ""}`);
  },
};

/** `/connect`: the providers with their log-in state; picking one logs in or switches to it. */
export const connectCommand: BuiltinCommand = {
  name: "connect",
  description: "Pick a provider: log in (API key) or switch to it",
  kind: "instant",
  group: "Provider",
  run: async (_args, context) => {
    const { store } = await openCredentialStore({ env: context.env });
    const rows = await authStatus({ env: context.env, config: context.session.config, store });
    const current = context.session.model.providerId;
    context.openPicker({
      title: `Connect a provider (now ${current})`,
      items: rows.map((row) => ({
        label: `${row.name} (${row.id})`,
        description:
          row.status === "not connected"
            ? "not connected — enter pastes an API key"
            : `${row.status}${row.envVar ? ` ${row.envVar}` : ""} — enter switches to it`,
        value: row.id,
      })),
      onPick: (id) => {
        const row = rows.find((entry) => entry.id === id);
        if (!row || row.status === "not connected") return context.askApiKey(id);
        const model = listModels(id)[0];
        if (!model)
          return context.say(`${id} has no models in the registry: /model ${id}/<id> picks one.`, "warning");
        void context.session.setModel(`${id}/${model.id}`).then(
          (next) => {
            context.refresh();
            context.say(`Model: ${next.providerId}/${next.modelId} (from the next request on)`);
          },
          (error: unknown) => context.say(error instanceof Error ? error.message : String(error), "warning"),
        );
      },
    });
  },
};

/** `/index [status|off]`: the code index's state, or off for this session. */
export const indexCommand: BuiltinCommand = {
  name: "index",
  description: "The code index's state, or turn it off for this session",
  kind: "instant",
  args: "[status|off]",
  group: "Project",
  run: async (args, context) => {
    const index = context.session.workflows.index;
    if (args === "off") {
      const turned = await index.off();
      return context.say(
        turned
          ? "The code index is off for this session (semantic search and auto-context find none). `nyz config set index.enabled false` turns it off for good."
          : "The code index is already off for this session (or index.enabled = false).",
      );
    }
    if (args && args !== "status") return context.say("Usage: /index [status|off]", "warning");
    const state = await index.status();
    if (!state.enabled)
      return context.say("No code index in this session (index.enabled = false; `nyz index` builds one).");
    context.say(
      [
        `Code index of ${state.root}:`,
        `  ${state.off ? "off for this session" : state.building ? "building" : state.built ? "built" : "not built yet"}${state.started && !state.off ? " · in use" : ""}`,
        "`nyz index status` shows its files, chunks and embedder; /index off turns it off for this session.",
      ].join("\n"),
    );
  },
};
