import { randomUUID } from "node:crypto";
import { type FileLockOptions, withFileLock, writeFileAtomic } from "@nyzhi/config";
import type { TeamMessage } from "./team-message.js";
import { checkName, readJsonFile, type TeamDirs, teamPaths } from "./team-types.js";

export interface OutgoingMessage {
  from: string;
  text: string;
  color?: string | undefined;
}

/**
 * One inbox file per member (`teams/<team>/inboxes/<member>.json`, a JSON array). Appends and
 * read-marking are read-modify-writes under `<member>.lock`; files are replaced atomically, so a
 * reader without the lock (peeking for unread mail) always sees a whole array.
 */
export class Mailbox {
  /** Called after each write to a team's files (the session's `team-state` events). */
  onWrite: ((team: string) => void) | undefined;

  constructor(
    readonly dirs: TeamDirs,
    private readonly lockOptions: FileLockOptions = {},
  ) {}

  /** Appends a message to `to`'s inbox (created when missing) and returns it. */
  async send(team: string, to: string, message: OutgoingMessage): Promise<TeamMessage> {
    const entry: TeamMessage = {
      id: randomUUID(),
      from: message.from,
      text: message.text,
      timestamp: new Date().toISOString(),
      read: false,
    };
    if (message.color) entry.color = message.color;
    await this.mutate(team, to, (inbox) => {
      inbox.push(entry);
      return true;
    });
    return entry;
  }

  /** Sends to every one of `recipients` except the sender; returns who got it. */
  async broadcast(team: string, recipients: readonly string[], message: OutgoingMessage): Promise<string[]> {
    const targets = recipients.filter((name) => name !== message.from);
    for (const to of targets) await this.send(team, to, message);
    return targets;
  }

  /** The directory holding the team's inbox files (for watching). */
  inboxDir(team: string): string {
    return teamPaths(this.dirs, team).inboxes;
  }

  /** Every message of the inbox, oldest first. */
  async all(team: string, member: string): Promise<TeamMessage[]> {
    return (await readJsonFile<TeamMessage[]>(teamPaths(this.dirs, team).inbox(member))) ?? [];
  }

  /** Unread messages without marking them (no lock: files are replaced atomically). */
  async peekUnread(team: string, member: string): Promise<TeamMessage[]> {
    return (await this.all(team, member)).filter((message) => !message.read);
  }

  /**
   * Takes the unread messages and marks them read in the same locked cycle, so two readers
   * never both receive one. `accept` may keep some unread (they stay for a later take).
   */
  async takeUnread(
    team: string,
    member: string,
    accept: (message: TeamMessage) => boolean = () => true,
  ): Promise<TeamMessage[]> {
    const taken: TeamMessage[] = [];
    await this.mutate(team, member, (inbox) => {
      for (const message of inbox) {
        if (message.read || !accept(message)) continue;
        message.read = true;
        taken.push({ ...message });
      }
      return taken.length > 0;
    });
    return taken;
  }

  async unreadCount(team: string, member: string): Promise<number> {
    return (await this.peekUnread(team, member)).length;
  }

  private async mutate(
    team: string,
    member: string,
    change: (inbox: TeamMessage[]) => boolean,
  ): Promise<void> {
    const paths = teamPaths(this.dirs, team);
    const name = checkName("member", member);
    await withFileLock(
      paths.inboxLock(name),
      async () => {
        const inbox = (await readJsonFile<TeamMessage[]>(paths.inbox(name))) ?? [];
        if (!change(inbox)) return;
        await writeFileAtomic(paths.inbox(name), `${JSON.stringify(inbox, null, 2)}\n`, { fsync: false });
      },
      this.lockOptions,
    );
    this.onWrite?.(team);
  }
}
