import { homedir, platform } from "node:os";
import { join } from "node:path";

/** Where nyzhi keeps its files. Every directory is absolute. */
export interface NyzhiDirs {
  /** Holds the global `config.toml` and global `agents.json`. */
  config: string;
  /** Root of the data directories below. */
  data: string;
  sessions: string;
  /** Project memory topics, one folder per project. */
  memory: string;
  teams: string;
  tasks: string;
  index: string;
  logs: string;
  /** `auth.json`, the file fallback of the credential store. */
  auth: string;
  /** Files that can be rebuilt at any time (the CLI's V8 code cache); safe to delete. */
  cache: string;
}

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Resolves nyzhi's directories from the environment.
 *
 * `NYZHI_HOME` relocates all of them (config in `$NYZHI_HOME/config`, data in `$NYZHI_HOME/data`),
 * which is how tests and sandboxes keep away from the real home. Otherwise XDG on Linux
 * (`$XDG_CONFIG_HOME/nyzhi`, `$XDG_DATA_HOME/nyzhi`), `~/Library/Application Support/nyzhi` on
 * macOS, `%APPDATA%\nyzhi` / `%LOCALAPPDATA%\nyzhi` on Windows. The cache follows the platform's
 * cache location (`NYZHI_CACHE_DIR` overrides it): `$NYZHI_HOME/cache`, `$XDG_CACHE_HOME/nyzhi` (`~/.cache/nyzhi`),
 * `~/Library/Caches/nyzhi`, `%LOCALAPPDATA%\nyzhi\cache`.
 */
export function resolveDirs(env: Environment = process.env): NyzhiDirs {
  const nyzhiHome = env.NYZHI_HOME;
  let config: string;
  let data: string;
  let cache: string;
  if (nyzhiHome) {
    config = join(nyzhiHome, "config");
    data = join(nyzhiHome, "data");
    cache = join(nyzhiHome, "cache");
  } else {
    const home = env.HOME ?? env.USERPROFILE ?? homedir();
    const os = platform();
    if (os === "darwin") {
      config = join(home, "Library", "Application Support", "nyzhi");
      data = config;
      cache = join(home, "Library", "Caches", "nyzhi");
    } else if (os === "win32") {
      config = join(env.APPDATA ?? join(home, "AppData", "Roaming"), "nyzhi");
      data = join(env.LOCALAPPDATA ?? join(home, "AppData", "Local"), "nyzhi");
      cache = join(data, "cache");
    } else {
      config = join(env.XDG_CONFIG_HOME || join(home, ".config"), "nyzhi");
      data = join(env.XDG_DATA_HOME || join(home, ".local", "share"), "nyzhi");
      cache = join(env.XDG_CACHE_HOME || join(home, ".cache"), "nyzhi");
    }
  }
  if (env.NYZHI_CACHE_DIR) cache = env.NYZHI_CACHE_DIR;
  return {
    config,
    data,
    sessions: join(data, "sessions"),
    memory: join(data, "memory"),
    teams: join(data, "teams"),
    tasks: join(data, "tasks"),
    index: join(data, "index"),
    logs: join(data, "logs"),
    auth: join(data, "auth.json"),
    cache,
  };
}

/** Path of the global config file. */
export function globalConfigPath(env: Environment = process.env): string {
  return join(resolveDirs(env).config, "config.toml");
}
