import { getAtPath, isPlainObject, type PlainObject, splitKeyPath } from "../key-paths/key-path.js";

/**
 * Keys nyzhi once accepted but nothing ever read (the original's auto-commit prompt, todo
 * enforcer, simplifier, routing, voice, notifications and self-update). They are gone from the
 * schema; an old config file that still sets one loads, with a warning naming each key, instead of
 * an error or silence.
 */
export const REMOVED_KEYS: readonly string[] = [
  "agent.auto_commit",
  "agent.enforce_todos",
  "agent.auto_simplify",
  "agent.routing",
  "agent.voice",
  "external_notify",
  "update",
];

/**
 * Sections that stay in the schema for a feature still being built, read by nothing yet: setting
 * one of their keys warns that it has no effect so far. The work that starts reading a section
 * removes it from this list (and the test that pins the list).
 */
export const NOT_YET_READ_KEYS: ReadonlyArray<{ key: string; takesEffect: string }> = [
  { key: "tui.markdown", takesEffect: "in a later version (the app always renders Markdown)" },
  { key: "tui.streaming", takesEffect: "in a later version (the app always streams)" },
  { key: "tui.output_style", takesEffect: "in a later version" },
  { key: "tui.show_thinking", takesEffect: "in a later version (the app always shows thinking)" },
  { key: "tui.notify", takesEffect: "in a later version (the app does not notify yet)" },
  ...[
    "bg_page",
    "bg_surface",
    "bg_elevated",
    "bg_sunken",
    "text_disabled",
    "border_strong",
    "accent_muted",
  ].map((colour) => ({
    key: `tui.colors.${colour}`,
    takesEffect: "in a later version (the theme has no such colour yet)",
  })),
  { key: "models", takesEffect: "in a later version (set agent.max_tokens instead)" },
  { key: "provider.*.max_tokens", takesEffect: "in a later version (set agent.max_tokens instead)" },
  { key: "provider.*.temperature", takesEffect: "in a later version" },
  { key: "agent.model_profile", takesEffect: "in a later version" },
  { key: "agent.sharing", takesEffect: "in a later version (sessions are not shared yet)" },
  {
    key: "agent.trust.remember_approvals",
    takesEffect: 'in a later version ("allow always" answers last for the session they were given in)',
  },
  { key: "browser", takesEffect: "in a later version (there is no browser tool yet)" },
];

/**
 * The key paths of every value set under `prefix` in `data`; a `*` segment in `prefix` stands
 * for any one key (`provider.*.temperature`).: the prefix itself for a scalar, and
 * an empty table counts as set only with `emptyTables` (`[update]` alone is worth a warning; a
 * `[tui]` left empty once its unknown keys were dropped is not).
 */
export function keysSetUnder(data: PlainObject, prefix: string, options: { emptyTables: boolean }): string[] {
  const star = prefix.indexOf("*");
  if (star >= 0) {
    const table = star === 0 ? data : getAtPath(data, splitKeyPath(prefix.slice(0, star - 1)));
    if (!isPlainObject(table)) return [];
    return Object.keys(table).flatMap((key) =>
      keysSetUnder(data, `${prefix.slice(0, star)}${key}${prefix.slice(star + 1)}`, options),
    );
  }
  const value = getAtPath(data, splitKeyPath(prefix));
  if (value === undefined) return [];
  const found: string[] = [];
  const visit = (item: unknown, keyPath: string): void => {
    if (!isPlainObject(item)) found.push(keyPath);
    else if (Object.keys(item).length > 0) {
      for (const [key, child] of Object.entries(item)) visit(child, `${keyPath}.${key}`);
    } else if (options.emptyTables) found.push(keyPath);
  };
  visit(value, prefix);
  return found;
}

/** The removed key `keyPath` is, or lies under; undefined for a key nyzhi still has. */
export function removedKeyOf(keyPath: string): string | undefined {
  return REMOVED_KEYS.find((key) => keyPath === key || keyPath.startsWith(`${key}.`));
}

/** `agent.auto_commit is not used by nyzhi and is ignored` (several keys: `a, b are …`). */
export function removedKeyMessage(keyPaths: readonly string[]): string {
  const verb = keyPaths.length === 1 ? "is" : "are";
  return `${keyPaths.join(", ")} ${verb} not used by nyzhi and ${verb} ignored`;
}

/** `tui.markdown is not read yet: it takes effect in a later version (…)`. */
export function notYetReadMessage(keyPaths: readonly string[], takesEffect: string): string {
  const [verb, pronoun] = keyPaths.length === 1 ? ["is", "it takes"] : ["are", "they take"];
  return `${keyPaths.join(", ")} ${verb} not read yet: ${pronoun} effect ${takesEffect}`;
}
