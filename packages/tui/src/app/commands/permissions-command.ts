import type { PermissionRuleView } from "@nyzhi/core";
import type { BuiltinCommand, CommandContext } from "./command-types.js";

type AllowAlways = Extract<PermissionRuleView, { kind: "allow-always" }>;

const EFFECT_WORDS: Readonly<Record<string, string>> = {
  deny: "deny ",
  ask: "ask  ",
  allow: "allow",
  limit: "limit",
};

/** The "allow always" answers of this session, in the order `/permissions` numbers them. */
function allowAlways(context: CommandContext): AllowAlways[] {
  return context.session.permissions
    .list()
    .filter((rule): rule is AllowAlways => rule.kind === "allow-always");
}

/** The rules in force, as `/permissions` prints them: the numbered ones are removable. */
export function formatPermissions(rules: readonly PermissionRuleView[]): string {
  const lines = ["Permissions in force:"];
  const config: string[] = [];
  const answers: string[] = [];
  for (const rule of rules) {
    if (rule.kind === "trust-mode") lines.push(`  trust mode: ${rule.mode} (from ${rule.origin})`);
    else if (rule.kind === "sandbox") lines.push(`  sandbox: ${rule.level} (from ${rule.origin})`);
    else if (rule.kind === "config")
      config.push(`    ${EFFECT_WORDS[rule.effect] ?? rule.effect} ${rule.description} — ${rule.origin}`);
    else answers.push(`    ${answers.length + 1}. ${rule.description}`);
  }
  lines.push("  Config rules ([agent.trust]):", ...(config.length > 0 ? config : ["    none"]));
  lines.push('  "Allow always" answers of this session:', ...(answers.length > 0 ? answers : ["    none"]));
  if (answers.length > 0)
    lines.push(
      "/permissions remove <N> forgets answer N (its calls ask again); /permissions remove all forgets every one.",
    );
  lines.push(
    "Config rules change in config.toml (`nyz config set agent.trust.<list> …`); /trust shows the folder's trust.",
  );
  return lines.join("\n");
}

/** `/permissions remove N|all`: forgets "allow always" answers; says what it removed. */
function remove(which: string, context: CommandContext) {
  const answers = allowAlways(context);
  if (answers.length === 0)
    return context.say('No "allow always" answers in this session: nothing to remove.');
  const picked =
    which === "all"
      ? answers
      : /^\d+$/.test(which) && answers[Number(which) - 1]
        ? [answers[Number(which) - 1] as AllowAlways]
        : undefined;
  if (!picked)
    return context.say(
      `No answer ${which || "given"}: use /permissions remove <1-${answers.length}> or /permissions remove all.`,
      "warning",
    );
  const removed = picked.filter((rule) => context.session.permissions.forget(rule.id));
  context.say(
    `Removed ${removed.map((rule) => rule.description.replace(/: allowed for this session$/, "")).join("; ")}: those calls ask again.`,
  );
}

/**
 * `/permissions`: the rules in force (trust mode, sandbox, the `[agent.trust]` lists with where
 * each came from, this session's "allow always" answers, numbered); `/permissions remove N`
 * forgets answer N, or a picker of the answers when none is named.
 */
export const permissionsCommand: BuiltinCommand = {
  name: "permissions",
  description: 'Rules in force: trust, sandbox, config rules, "allow always" answers (removable)',
  kind: "instant",
  args: "[remove N|all]",
  group: "Agent",
  run: (args, context) => {
    const [verb, ...rest] = args.split(/\s+/).filter(Boolean);
    if (verb === undefined) return context.say(formatPermissions(context.session.permissions.list()));
    if (verb !== "remove" && verb !== "forget")
      return context.say(
        `Unknown /permissions argument "${args}": use /permissions or /permissions remove N.`,
        "warning",
      );
    const which = rest.join(" ").toLowerCase();
    if (which) return remove(which, context);
    const answers = allowAlways(context);
    if (answers.length === 0) return remove("", context);
    context.openPicker({
      title: 'Remove an "allow always" answer (its calls ask again)',
      items: answers.map((rule, index) => ({
        label: `${index + 1}. ${rule.description.replace(/: allowed for this session$/, "")}`,
        description: `asked of ${rule.agent.agentId}`,
        value: String(index + 1),
      })),
      onPick: (value) => remove(value, context),
    });
  },
};
