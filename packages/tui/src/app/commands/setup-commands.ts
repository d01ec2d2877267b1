import {
  type ConfigWarning,
  describeOrigins,
  globalConfigPath,
  scaffoldProject,
  setConfigValue,
  setProjectTrust,
} from "@nyzhi/config";
import {
  authStatus,
  defaultOAuthProviders,
  detectBwrap,
  formatAuthStatus,
  formatDoctorReport,
  openCredentialStore,
  runDoctor,
} from "@nyzhi/core";
import { ACCENTS } from "../../theme/accents.js";
import type { BuiltinCommand, CommandContext, HostContext } from "./command-types.js";

/**
 * `/login <provider> [oauth|key]`: the provider's browser login (OAuth) or a pasted API key; with
 * neither named, a picker of the two where the provider offers OAuth, else the key prompt.
 */
function startLogin(args: string, context: HostContext) {
  const [named, how] = args.split(/\s+/).filter(Boolean);
  const providerId = named ?? context.missingProvider;
  if (!providerId) return context.say("Name the provider: /login <provider> [oauth|key].", "warning");
  const method = how?.toLowerCase();
  const offersOAuth = providerId in defaultOAuthProviders(context.env);
  if (method !== undefined && !["oauth", "browser", "key", "api-key"].includes(method))
    return context.say(
      `Unknown /login method "${how}": use /login ${providerId} oauth or /login ${providerId} key.`,
      "warning",
    );
  if (method === "key" || method === "api-key") return context.askApiKey(providerId);
  if (!offersOAuth) {
    if (method) context.say(`${providerId} has no browser login: paste an API key.`, "warning");
    return context.askApiKey(providerId);
  }
  if (method) return context.loginWithBrowser(providerId);
  context.openPicker({
    title: `Log in to ${providerId}`,
    items: [
      {
        label: "Log in with the browser (OAuth)",
        description: "opens the URL, waits for it to come back",
        value: "oauth",
      },
      { label: "Paste an API key", description: "masked, saved as `nyz login` saves it", value: "key" },
    ],
    onPick: (value) =>
      value === "oauth" ? context.loginWithBrowser(providerId) : context.askApiKey(providerId),
  });
}

/** `/login`: which credentials each provider has; `/login <provider> [oauth|key]` logs in here. */
export const loginCommand: BuiltinCommand = {
  name: "login",
  description: "Credentials per provider; log in with the browser (OAuth) or an API key",
  kind: "instant",
  args: "[provider] [oauth|key]",
  group: "Provider",
  // No session yet (no credentials): log in to the named provider, or the missing one.
  runWithoutSession: (args, context) => startLogin(args, context),
  run: async (args, context) => {
    if (args) return startLogin(args, context);
    const { store } = await openCredentialStore({ env: context.env });
    const rows = await authStatus({ env: context.env, config: context.session.config, store });
    context.say(
      `${formatAuthStatus(rows).trimEnd()}\nTo log in here: /login <provider> (the browser where the provider offers OAuth, or an API key pasted masked; saved as \`nyz login <provider>\` saves them). The session uses it at once.`,
    );
  },
};

/**
 * The app's first-run notice for an untrusted folder whose config set power keys (the loader's
 * `untrusted-project` warning): one line naming the ignored keys and how to trust it from the app.
 */
export function startupNotice(warning: ConfigWarning): string {
  if (warning.kind !== "untrusted-project") return warning.message;
  const keys = warning.keyPaths?.join(", ") || warning.keyPath;
  return `This folder is not trusted, so its settings that widen what nyzhi may do were ignored (${keys}). /trust on to trust this folder (they apply at once).`;
}

/** What the project's untrusted config tried to set (its power keys were ignored). */
function ignoredPowerKeys(context: CommandContext): string[] {
  return context.session.loaded.warnings
    .filter((warning) => warning.kind === "untrusted-project")
    .map((warning) => warning.message);
}

/**
 * `/trust`: whether this folder is trusted (its config may widen power: trust mode, sandbox,
 * hooks, MCP servers) and the session's trust mode; `/trust on` records the folder in the global
 * config (as `nyz trust`), `/trust remove` forgets it; either way the session reopens in place on
 * the same conversation (`session.reopen()`), so the project's settings apply at once.
 */
export const trustCommand: BuiltinCommand = {
  name: "trust",
  description: "Whether this folder is trusted (its config may widen power); shows the trust mode",
  kind: "instant",
  args: "[on|remove]",
  group: "Agent",
  run: async (args, context) => {
    const { projectRoot, loaded } = context.session;
    const file = globalConfigPath(context.env);
    const word = args.toLowerCase();
    if (word === "on" || word === "yes" || word === "project" || word === "remove") {
      const trusted = word !== "remove";
      const change = await setProjectTrust(file, projectRoot, { trusted });
      const what = trusted ? "trusted" : "no longer trusted";
      if (!change.changed) {
        context.say(`${projectRoot} was already ${what}; ${file} is unchanged.`);
        return;
      }
      context.say(`${projectRoot} is now ${what} (recorded in ${file}).`);
      const reopened = await context.reopenSession();
      if (!reopened) {
        context.say(
          "The project's settings apply once the session reopens: /trust on again after this turn, or `nyz -c`.",
          "warning",
        );
        return;
      }
      context.say(
        `Applied now, on the same conversation: ${
          trusted ? "the project's settings count" : "the project's power keys are ignored"
        } · trust mode ${reopened.modes.trustMode()} · sandbox ${reopened.config.agent.sandbox}.`,
      );
      return;
    }
    if (args) {
      context.say(`Unknown /trust argument "${args}": use /trust, /trust on or /trust remove.`, "warning");
      return;
    }
    const ignored = ignoredPowerKeys(context);
    context.say(
      [
        `This folder (${projectRoot}) is ${loaded.projectTrusted ? "trusted" : "not trusted"}: ${
          loaded.projectTrusted
            ? "its .nyzhi/config.toml may set power keys (trust mode, sandbox, hooks, MCP servers)."
            : "power keys in its .nyzhi/config.toml are ignored. /trust on trusts it."
        }`,
        ...(ignored.length > 0 ? ["Ignored now:", ...ignored.map((message) => `  ${message}`)] : []),
        `Trust mode of this session: ${context.session.config.agent.trust.mode} (start with \`nyz --trust <off|limited|autoedit|full>\`, or \`nyz config set agent.trust.mode <mode>\`).`,
      ].join("\n"),
    );
  },
};

const SANDBOX_EFFECT: Readonly<Record<string, string>> = {
  "read-only": "every write is refused; commands see a read-only filesystem and a private /tmp",
  "workspace-write": "writes only inside the project; commands may write only there and in a private /tmp",
  "full-access": "anything your user may write; commands run without bubblewrap",
};

/**
 * `/sandbox`: the level and what it allows (docs/security.md has the whole story). The level is
 * fixed when the session opens: `/sandbox <level>` says so and how to get it, instead of seeming
 * to change it.
 */
export const sandboxCommand: BuiltinCommand = {
  name: "sandbox",
  description: "Where tools may write",
  kind: "instant",
  args: "[read-only|workspace-write|full-access]",
  group: "Agent",
  run: async (args, context) => {
    const { config } = context.session;
    const level = config.agent.sandbox;
    const wanted = args.trim();
    if (wanted !== "" && !(wanted in SANDBOX_EFFECT)) {
      context.say(
        `Unknown sandbox level "${wanted}": use read-only, workspace-write or full-access.`,
        "warning",
      );
      return;
    }
    if (wanted !== "" && wanted !== level) {
      context.say(
        [
          `The sandbox stays ${level}: it is fixed when the session opens, so /sandbox only shows it.`,
          `For ${wanted}: quit and run \`nyz --sandbox ${wanted}\` (this session continues with \`nyz -c --sandbox ${wanted}\`),`,
          `or \`nyz config set agent.sandbox ${wanted}\` for every session.`,
        ].join("\n"),
        "warning",
      );
      return;
    }
    const bwrap = await detectBwrap();
    const extra = config.shell.sandbox;
    context.say(
      [
        `Sandbox: ${level} — ${SANDBOX_EFFECT[level] ?? "see docs/security.md"}.`,
        `Commands: ${bwrap.available ? `contained by bubblewrap ${bwrap.version}` : `bubblewrap ${bwrap.reason} (${bwrap.detail}): commands run unsandboxed${level === "read-only" ? ", so they are refused" : ""}`}.`,
        `Network for commands: ${extra.allow_network ? "allowed" : "off"} · credential dotfiles: ${extra.block_dotfiles ? "hidden" : "visible"}`,
        ...(extra.allow_write.length > 0 ? [`Also writable: ${extra.allow_write.join(", ")}`] : []),
        "Change it with `nyz --sandbox <read-only|workspace-write|full-access>` or `nyz config set agent.sandbox <level>`.",
      ].join("\n"),
    );
  },
};

/** `/init`: scaffolds `.nyzhi/` in the project (as `nyz init`). */
export const initCommand: BuiltinCommand = {
  name: "init",
  description: "Scaffold .nyzhi/ for this project",
  kind: "instant",
  group: "Project",
  run: async (_args, context) => {
    const result = await scaffoldProject(context.session.projectRoot);
    const lines = [
      ...result.created.map((path) => `created ${path}`),
      ...result.skipped.map((path) => `kept ${path} (exists)`),
      ...result.gitignoreAdded.map((entry) => `added ${entry} to .gitignore`),
    ];
    context.say(lines.length > 0 ? lines.join("\n") : "Nothing to do.");
  },
};

/**
 * `/doctor`: the checks of `nyz doctor` (Node, sandbox, ripgrep, git, tmux, keychain, credentials,
 * proxy, trust, index, config), each problem with its fix.
 */
export const doctorCommand: BuiltinCommand = {
  name: "doctor",
  description: "Check credentials, bubblewrap, ripgrep, config",
  kind: "instant",
  group: "Project",
  run: async (_args, context) => {
    const report = await runDoctor({
      cwd: context.session.loaded.projectRoot,
      env: context.env,
      loaded: context.session.loaded,
    });
    context.say(formatDoctorReport(report).trimEnd());
  },
};

const THEMES = new Set(["dark", "light", "auto"]);

/**
 * `/theme [dark|light|auto] [accent]`: without arguments the theme and the accents; with them,
 * written to the global config (`tui.theme`, `tui.accent`), used from the next start.
 */
export const themeCommand: BuiltinCommand = {
  name: "theme",
  description: "Dark, light or auto",
  kind: "instant",
  args: "[dark|light|auto]",
  group: "UI",
  run: async (args, context) => {
    const { tui } = context.session.config;
    const accents = Object.keys(ACCENTS);
    if (!args) {
      context.say(
        `Theme: ${tui.theme} · accent: ${tui.accent}\nAccents: ${accents.join(", ")}\n/theme <dark|light|auto> [accent] saves them (global config).`,
      );
      return;
    }
    const file = globalConfigPath(context.env);
    const words = args.split(/\s+/);
    const changed: string[] = [];
    for (const word of words) {
      const key = THEMES.has(word) ? "tui.theme" : accents.includes(word) ? "tui.accent" : undefined;
      if (!key) {
        context.say(
          `Unknown theme or accent "${word}": use dark, light, auto, or ${accents.join(", ")}.`,
          "warning",
        );
        return;
      }
      await setConfigValue(file, key, word);
      changed.push(`${key} = ${word}`);
    }
    context.say(`Saved ${changed.join(", ")} in ${file}; it applies when nyz next starts.`);
  },
};

/** The settings the app reads, shown with where each value comes from. */
const APP_SETTINGS = [
  "provider",
  "model",
  "agent.trust.mode",
  "agent.sandbox",
  "tui.theme",
  "tui.accent",
  "agent.max_depth",
  "agent.max_threads",
];

/** `/settings`: the effective settings the app uses, with their origins. */
export const settingsCommand: BuiltinCommand = {
  name: "settings",
  description: "Display and agent settings",
  kind: "instant",
  group: "UI",
  run: (_args, context) => {
    const { origins, files } = context.session.loaded;
    const picked = Object.fromEntries(
      Object.entries(origins).filter(([key]) => APP_SETTINGS.includes(key) || key.startsWith("tui.")),
    );
    const lines = describeOrigins(picked);
    context.say(
      [
        `Model now: ${context.session.model.providerId}/${context.session.model.modelId}`,
        ...lines,
        `Config files: ${files.map((file) => file.path).join(", ") || "none"}`,
        "`nyz config` shows every setting; `nyz config set <key> <value>` changes one.",
      ].join("\n"),
    );
  },
};
