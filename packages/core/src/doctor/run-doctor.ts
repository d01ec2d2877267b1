import { existsSync } from "node:fs";
import { authStatus, openCredentialStore } from "@nyzhi/auth";
import {
  type Environment,
  errorMessage,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  proxyForUrl,
} from "@nyzhi/config";
import { detectBwrap } from "../engines/sandbox/detect-bwrap.js";
import type { DoctorCheck, DoctorReport } from "./doctor-types.js";
import { probeExecutable } from "./probe-executable.js";

/** The oldest Node nyzhi runs on. */
export const MIN_NODE_MAJOR = 20;

export interface RunDoctorOptions {
  cwd: string;
  env: Environment;
  /** How the config is loaded (flags, `--trust-project`); cwd and env are taken from above. */
  load?: Omit<LoadConfigOptions, "cwd" | "env">;
  /** The config already loaded by the host (the app's); loaded here otherwise. */
  loaded?: LoadedConfig;
  /** Replaces how executables are probed (tests). */
  probe?: typeof probeExecutable;
  /** The Node version to judge. Default `process.versions.node`. */
  nodeVersion?: string;
  /** The platform to judge. Default `process.platform`. */
  platform?: NodeJS.Platform;
}

/**
 * What `nyz doctor` and the app's `/doctor` check: Node, the sandbox (bubblewrap, tried for
 * real), ripgrep, git, tmux (`tmux -V`), the OS keychain, credentials per provider (their source,
 * never the secret), proxy settings, this project's trust, the code index, and the config files
 * with their warnings. Never throws: a check that cannot run says why.
 */
export async function runDoctor(options: RunDoctorOptions): Promise<DoctorReport> {
  const probe = options.probe ?? probeExecutable;
  const env = options.env as NodeJS.ProcessEnv;
  let loaded = options.loaded;
  let loadError: unknown;
  if (!loaded) {
    try {
      loaded = await loadConfig({ ...options.load, cwd: options.cwd, env: options.env });
    } catch (error) {
      loadError = error;
    }
  }
  const checks = await Promise.all([
    nodeCheck(options.nodeVersion ?? process.versions.node),
    sandboxCheck(options.platform ?? process.platform),
    toolCheck(probe, env, {
      id: "ripgrep",
      args: ["rg", "--version"],
      fix: "install ripgrep (apt install ripgrep, brew install ripgrep) for faster searches; grep works without it",
    }),
    toolCheck(probe, env, {
      id: "git",
      args: ["git", "--version"],
      fix: "install git: the git tools and checkpoints of changes need it",
    }),
    toolCheck(probe, env, {
      id: "tmux",
      args: ["tmux", "-V"],
      fix: "optional: install tmux (apt install tmux) to see teammates in panes",
    }),
    keychainCheck(options.env),
    loaded ? credentialsCheck(options.env, loaded) : notChecked("credentials"),
    proxyCheck(options.env),
    loaded ? trustCheck(loaded) : notChecked("trust"),
    loaded ? indexCheck(options.env, loaded) : notChecked("index"),
    configCheck(loaded, loadError),
  ]);
  return { checks, failed: checks.some((check) => check.state === "problem") };
}

function notChecked(id: string): DoctorCheck {
  return { id, summary: `${id}: not checked (the config did not load)`, state: "warning" };
}

function nodeCheck(version: string): DoctorCheck {
  const major = Number(version.split(".", 1)[0]);
  if (major >= MIN_NODE_MAJOR) return { id: "node", summary: `Node ${version}`, state: "ok" };
  return {
    id: "node",
    summary: `Node ${version}: too old`,
    state: "problem",
    fix: `install Node ${MIN_NODE_MAJOR} or newer (https://nodejs.org, or nvm install ${MIN_NODE_MAJOR})`,
  };
}

async function sandboxCheck(platform: NodeJS.Platform): Promise<DoctorCheck> {
  if (platform !== "linux") {
    return {
      id: "sandbox",
      summary: `sandbox: not available on ${platform} (commands run unsandboxed; approvals still apply)`,
      state: "warning",
    };
  }
  const status = await detectBwrap();
  if (status.available) {
    return { id: "sandbox", summary: `sandbox: ${status.version}, tried: it works`, state: "ok" };
  }
  return {
    id: "sandbox",
    summary:
      status.reason === "missing"
        ? "sandbox: bubblewrap is not installed (commands run unsandboxed)"
        : `sandbox: bubblewrap cannot run here (${status.detail.split("\n", 1)[0]})`,
    state: "warning",
    fix:
      status.reason === "missing"
        ? "install bubblewrap (apt install bubblewrap, dnf install bubblewrap)"
        : "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 an AppArmor profile for bwrap), or run in a VM/container that allows them — see docs/troubleshooting.md",
  };
}

async function toolCheck(
  probe: typeof probeExecutable,
  env: NodeJS.ProcessEnv,
  tool: { id: string; args: [string, ...string[]]; fix: string },
): Promise<DoctorCheck> {
  const [file, ...args] = tool.args;
  const version = await probe(file, args, { env });
  if (version !== undefined) return { id: tool.id, summary: version || tool.id, state: "ok" };
  return { id: tool.id, summary: `${tool.id}: not found`, state: "warning", fix: tool.fix };
}

async function keychainCheck(env: Environment): Promise<DoctorCheck> {
  const opened = await openCredentialStore({ env });
  if (opened.kind === "keychain") return { id: "keychain", summary: "OS keychain: available", state: "ok" };
  if (!opened.fallbackReason) {
    return { id: "keychain", summary: "credentials: auth.json (NYZHI_CREDENTIAL_STORE=file)", state: "ok" };
  }
  const moduleMissing = /cannot find (module|package)/i.test(opened.fallbackReason);
  return {
    id: "keychain",
    summary: `OS keychain: unavailable (${opened.fallbackReason.split("\n", 1)[0]}); logins are saved in auth.json (mode 0600)`,
    state: "warning",
    fix: moduleMissing
      ? "the keyring module is not installed: npm install -g nyzhi --include=optional"
      : "on Linux without a desktop, run a Secret Service (gnome-keyring in a D-Bus session, see docs/troubleshooting.md), or keep auth.json",
  };
}

async function credentialsCheck(env: Environment, loaded: LoadedConfig): Promise<DoctorCheck> {
  const { store } = await openCredentialStore({ env });
  const rows = await authStatus({ env, config: loaded.config, store });
  const connected = rows.filter((row) => row.status !== "not connected");
  const details = connected.map((row) => {
    if (row.status === "env") return `${row.id}: ${row.envVar}`;
    if (row.status === "config") return `${row.id}: api_key in config`;
    return `${row.id}: ${row.accounts.length} stored account${row.accounts.length === 1 ? "" : "s"}`;
  });
  if (connected.length > 0) {
    return {
      id: "credentials",
      summary: `credentials: ${connected.map((row) => row.id).join(", ")}`,
      state: "ok",
      details,
    };
  }
  return {
    id: "credentials",
    summary: "credentials: none",
    state: "warning",
    fix: "run `nyz login <provider>` or set the provider's key variable (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, …)",
  };
}

function proxyCheck(env: Environment): DoctorCheck {
  const details: string[] = [];
  for (const name of ["HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"]) {
    const value = env[name] ?? env[name.toLowerCase()];
    if (value) details.push(`${name}=${redactProxyPassword(value)}`);
  }
  const ca = env.NODE_EXTRA_CA_CERTS;
  if (ca) details.push(`NODE_EXTRA_CA_CERTS=${ca}`);
  try {
    proxyForUrl(new URL("https://api.anthropic.com/"), env);
    proxyForUrl(new URL("http://example.com/"), env);
  } catch (error) {
    return {
      id: "proxy",
      summary: `proxy: ${errorMessage(error)}`,
      state: "problem",
      fix: "fix or unset the proxy variable named",
      details,
    };
  }
  if (ca && !existsSync(ca)) {
    return {
      id: "proxy",
      summary: `proxy: NODE_EXTRA_CA_CERTS names a file that does not exist (${ca})`,
      state: "problem",
      fix: "point NODE_EXTRA_CA_CERTS at your organisation's CA bundle (PEM), or unset it",
      details,
    };
  }
  return {
    id: "proxy",
    summary: details.length > 0 ? "proxy: set" : "proxy: none set (direct connections)",
    state: "ok",
    details,
  };
}

/** `http://user:secret@proxy:8080` → `http://user:***@proxy:8080`. */
function redactProxyPassword(value: string): string {
  return value.replace(/(\/\/[^:/@]+:)[^@]+@/, "$1***@");
}

function trustCheck(loaded: LoadedConfig): DoctorCheck {
  const mode = loaded.config.agent.trust.mode;
  return {
    id: "trust",
    summary: `project ${loaded.projectRoot}: ${loaded.projectTrusted ? "trusted" : "not trusted (its config may not widen what nyzhi may do)"} · trust mode ${mode}`,
    state: "ok",
  };
}

async function indexCheck(env: Environment, loaded: LoadedConfig): Promise<DoctorCheck> {
  // Loaded here, not with core: a session never evaluates @nyzhi/index before it opens an index.
  const { createIndex, isLanceDbInstalled, LANCEDB_PACKAGES } = await import("@nyzhi/index");
  if (!isLanceDbInstalled()) {
    return {
      id: "index",
      summary:
        "code index: LanceDB is not installed (index search and auto-context are off; grep still works)",
      state: "warning",
      fix: `npm install -g nyzhi --include=optional (or, for a program using @nyzhi/core: npm install ${LANCEDB_PACKAGES})`,
    };
  }
  const index = createIndex({ root: loaded.projectRoot, env, config: loaded.config });
  try {
    const status = await index.status();
    const state = status.built
      ? `${status.files} files, ${status.chunks} chunks${status.complete ? "" : " (last update stopped early)"}`
      : "not built (run `nyz index`)";
    return {
      id: "index",
      summary: `code index: ${state} · embedder ${status.embedder}`,
      state: status.warning ? "warning" : "ok",
      ...(status.warning ? { fix: status.warning } : {}),
    };
  } catch (error) {
    return {
      id: "index",
      summary: `code index: ${errorMessage(error)}`,
      state: "warning",
      fix: "run `nyz index --rebuild`",
    };
  } finally {
    await index.close().catch(() => undefined);
  }
}

function configCheck(loaded: LoadedConfig | undefined, loadError: unknown): DoctorCheck {
  if (!loaded) {
    return {
      id: "config",
      summary: `config: ${errorMessage(loadError)}`,
      state: "problem",
      fix: "fix the file and key named",
    };
  }
  const files = loaded.files.map((file) => `${file.layer}: ${file.path}`);
  if (loaded.warnings.length === 0) {
    return {
      id: "config",
      summary: `config: ${files.length === 0 ? "no files (defaults)" : `${files.length} file${files.length === 1 ? "" : "s"}, no warnings`}`,
      state: "ok",
      details: files,
    };
  }
  return {
    id: "config",
    summary: `config: ${loaded.warnings.length} warning${loaded.warnings.length === 1 ? "" : "s"}`,
    state: "warning",
    fix: "fix the file and key named in each warning",
    details: [...files, ...loaded.warnings.map((warning) => warning.message)],
  };
}
