import { mkdir } from "node:fs/promises";
import { sep } from "node:path";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import type { TeamChange } from "../events/team-view.js";
import { readTeamSnapshot, type TeamSource } from "./team-snapshot.js";
import type { TeamDirs } from "./team-types.js";

/** ms a burst of team writes (a message sent: inbox, lock, state) is gathered into one event. */
export const TEAM_EVENT_DEBOUNCE_MS = 25;

export interface TeamStateReporterOptions {
  /** The session's team service: which teams it is in, its local teammates, the files. */
  source: TeamSource & { teamNames(): string[] };
  dirs: TeamDirs;
  /** The session's lead: `team-state` events carry its tag. */
  lead: AgentTag;
  emit: (event: AgentEvent) => void;
  debounceMs?: number;
  /** Watch the team files for other processes' changes (default true). */
  watch?: boolean;
}

interface Closable {
  close(): Promise<void>;
}

/**
 * Puts the session's team state on its event stream: after each change it reads the teams the
 * session takes part in (members and their states, unread mail, the task board) and emits one
 * `team-state` event when what a host shows differs from the last one. Changes come from this
 * process's own team code (`changed`, called where it writes or a teammate's status moves) and,
 * for other processes sharing the team files, from one file watcher (chokidar) started with the
 * first team. Hosts reduce these events; none of them polls the files.
 */
export class TeamStateReporter {
  private readonly pending = new Set<TeamChange>();
  private timer: NodeJS.Timeout | undefined;
  /** The teams as last emitted (none yet: an empty list is not news). */
  private last = "[]";
  private running: Promise<void> = Promise.resolve();
  private watcher: Promise<Closable | undefined> | undefined;
  private closed = false;

  constructor(private readonly options: TeamStateReporterOptions) {}

  /** Something in a team changed: a `team-state` event follows (gathered with others nearby). */
  changed(change: TeamChange): void {
    if (this.closed) return;
    this.pending.add(change);
    this.startWatching();
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.running.then(() => this.report()).catch(() => undefined);
    }, this.options.debounceMs ?? TEAM_EVENT_DEBOUNCE_MS);
    this.timer.unref?.();
  }

  /** Stops the watcher; later changes are not reported. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const watcher = await this.watcher?.catch(() => undefined);
    await watcher?.close().catch(() => undefined);
    await this.running;
  }

  private async report(): Promise<void> {
    const changes = [...this.pending];
    this.pending.clear();
    const { source } = this.options;
    const names = source.teamNames();
    if (names.length === 0 && source.teammates().length === 0) return;
    const snapshot = await readTeamSnapshot(source, { teams: names });
    const shown = JSON.stringify(snapshot.teams);
    if (this.closed || shown === this.last) return;
    this.last = shown;
    this.options.emit({ type: "team-state", agent: this.options.lead, changes, teams: snapshot.teams });
  }

  /** One watcher over the teams' and tasks' folders, for what other processes write. */
  private startWatching(): void {
    if (this.watcher || this.options.watch === false) return;
    const { dirs } = this.options;
    this.watcher = (async () => {
      await Promise.all([mkdir(dirs.teams, { recursive: true }), mkdir(dirs.tasks, { recursive: true })]);
      const { watch } = await import("chokidar");
      if (this.closed) return undefined;
      const watcher = watch([dirs.teams, dirs.tasks], {
        ignoreInitial: true,
        ignored: (path: string) => path.endsWith(".lock"),
      });
      const seen = (path: string) => this.changed(changeOf(dirs, path));
      watcher.on("add", seen).on("change", seen).on("unlink", seen).on("unlinkDir", seen);
      watcher.on("error", () => undefined);
      // What was written while the watcher started is read once it watches.
      watcher.once("ready", () => this.changed("members"));
      return watcher;
    })().catch(() => undefined);
  }
}

/** Which kind of change a written file is: a task (board), an inbox (mail), else the team's config. */
function changeOf(dirs: TeamDirs, path: string): TeamChange {
  if (path.startsWith(dirs.tasks + sep)) return "board";
  if (path.includes(`${sep}inboxes${sep}`)) return "mail";
  return "members";
}
