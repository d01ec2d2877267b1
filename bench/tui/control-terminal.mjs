// A terminal for measuring: a tmux pane driven through a tmux control-mode client (`tmux -C`).
// Control mode reports every byte the program writes to the pane as it is read (`%output`
// notifications), so the time from a key sent to its echo is measured to well under a
// millisecond, unlike polling `capture-pane`. Its own tmux server (`-L`), never the user's.
import { execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { StringDecoder } from "node:string_decoder";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** `%output %<pane> <data>` (read as latin1): bytes below 0x20 and `\` are escaped as `\ooo`. */
function decodeOutput(data) {
  const raw = data.replace(/\\([0-7]{3})/g, (_, octal) => String.fromCharCode(Number.parseInt(octal, 8)));
  return Buffer.from(raw, "latin1");
}

/** ink wraps every frame in a synchronized-update mark: counting them counts frames. */
const FRAME_MARK = "\x1b[?2026h";
/**
 * How much output is kept for `waitFor` (characters); counters cover all of it. It is kept as the
 * pieces read, not one string: appending to and slicing a megabyte string copies it, ~1 ms per
 * piece once a phase has written a few MB, which would count in the app's times and not in the
 * harness floor's (whose terminal writes little).
 */
const KEEP = 1 << 20;

/** `text` without escape sequences (colours, cursor moves, synchronized-update marks). */
export function stripAnsi(text) {
  return text.replace(/\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g, "");
}

/** Quotes one argument for tmux's command parser. */
export function quote(arg) {
  return `'${String(arg).replace(/'/g, `'\\''`)}'`;
}

export class ControlTerminal {
  socket = `nyz-bench-${randomUUID().slice(0, 8)}`;
  target = "bench";
  /** The last output the pane's programs wrote, decoded (UTF-8), in pieces, from position `base` on. */
  #pieces = [];
  #keptLength = 0;
  #base = 0;
  /** The output's last characters, where a frame mark may have begun. */
  #seam = "";
  /** Frames (synchronized-update marks) and bytes written since the start. */
  frames = 0;
  bytes = 0;
  #decoder = new StringDecoder("utf8");
  #pending = "";
  #waiters = new Set();
  #client;
  #env;

  /** Starts tmux (its environment is exactly `env`) with an idle pane of `columns` × `rows`. */
  static async start({ env, cwd, columns = 100, rows = 30 }) {
    const terminal = new ControlTerminal();
    terminal.#env = env;
    await terminal.tmux(
      "new-session",
      "-d",
      "-s",
      terminal.target,
      "-x",
      String(columns),
      "-y",
      String(rows),
      "-c",
      cwd,
      "sleep",
      "100000",
    );
    // The window keeps the size given, whatever size the control client reports.
    await terminal.tmux("set-option", "-g", "window-size", "manual");
    await terminal.tmux("set-option", "-g", "remain-on-exit", "on");
    terminal.#client = spawn("tmux", ["-L", terminal.socket, "-C", "attach", "-t", terminal.target], {
      env,
      stdio: ["pipe", "pipe", "ignore"],
    });
    terminal.#client.stdout.setEncoding("latin1");
    terminal.#client.stdout.on("data", (chunk) => terminal.#read(chunk));
    return terminal;
  }

  #read(chunk) {
    const pending = this.#pending + chunk;
    let start = 0;
    let newline = pending.indexOf("\n");
    let grew = false;
    while (newline >= 0) {
      const line = pending.slice(start, newline);
      start = newline + 1;
      if (line.startsWith("%output ")) {
        const bytes = decodeOutput(line.slice(line.indexOf(" ", 8) + 1));
        this.bytes += bytes.length;
        const text = this.#decoder.write(bytes);
        // A mark split between two pieces is found across the seam.
        const seam = this.#seam + text;
        for (let at = seam.indexOf(FRAME_MARK); at >= 0; at = seam.indexOf(FRAME_MARK, at + 1)) this.frames++;
        this.#seam = seam.slice(-(FRAME_MARK.length - 1));
        this.#pieces.push(text);
        this.#keptLength += text.length;
        while (this.#keptLength - this.#pieces[0].length > KEEP) {
          const dropped = this.#pieces.shift();
          this.#keptLength -= dropped.length;
          this.#base += dropped.length;
        }
        grew = true;
      }
      newline = pending.indexOf("\n", start);
    }
    this.#pending = pending.slice(start);
    if (grew) for (const waiter of [...this.#waiters]) waiter();
  }

  /** Characters written so far: a position for `waitFor`'s `from`. */
  get length() {
    return this.#base + this.#keptLength;
  }

  /** The output from position `from` on (what is still kept of it); costs what it returns. */
  since(from) {
    let start = this.length;
    let index = this.#pieces.length;
    while (index > 0 && start > from) start -= this.#pieces[--index].length;
    return this.#pieces
      .slice(index)
      .join("")
      .slice(Math.max(0, from - start));
  }

  /** Runs a tmux command through a separate client; resolves with its stdout. */
  async tmux(...args) {
    const { stdout } = await execFileAsync("tmux", ["-L", this.socket, ...args], {
      env: this.#env,
      encoding: "utf8",
    });
    return stdout;
  }

  /** Sends a command line through the control client (no round trip of its own). */
  command(line) {
    this.#client.stdin.write(`${line}\n`);
  }

  /** Replaces the pane's program with `argv` run directly (no shell). */
  respawn(argv, cwd) {
    this.command(`respawn-pane -k -t ${this.target} -c ${quote(cwd)} ${argv.map(quote).join(" ")}`);
  }

  /** Types `text` literally. */
  type(text) {
    this.command(`send-keys -t ${this.target} -l ${quote(text)}`);
  }

  /** tmux key names: Enter, Escape, C-u … */
  keys(...names) {
    this.command(`send-keys -t ${this.target} ${names.join(" ")}`);
  }

  /**
   * Resolves with the time (performance.now()) at which `check(text)` first held, checked on each
   * piece of output as it arrives; `text` is the output since `from` (`plain`: without escape
   * sequences). With `tail`, only the last `tail` characters before the new piece and the piece are
   * checked, so a long wait on a long stream stays cheap. Rejects after `timeoutMs`.
   */
  waitFor(check, { from = this.length, timeoutMs = 20_000, plain = true, tail } = {}) {
    return new Promise((resolve, reject) => {
      let scanned = from;
      const test = () => {
        const start = tail === undefined ? from : Math.max(from, scanned - tail);
        scanned = this.length;
        const text = this.since(start);
        if (!check(plain ? stripAnsi(text) : text)) return false;
        this.#waiters.delete(test);
        clearTimeout(timer);
        resolve(performance.now());
        return true;
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(test);
        const seen = stripAnsi(this.since(from)).slice(-1500);
        reject(new Error(`timed out after ${timeoutMs} ms; the terminal showed:\n${seen}`));
      }, timeoutMs);
      if (!test()) this.#waiters.add(test);
    });
  }

  /** Waits for `text` to be written (escape sequences ignored); see `waitFor`. */
  waitForText(text, options = {}) {
    return this.waitFor((plain) => plain.includes(text), { tail: 4096, ...options });
  }

  /** Whether the pane's program has ended. */
  async paneDead() {
    return (await this.tmux("display-message", "-p", "-t", this.target, "#{pane_dead}")).trim() === "1";
  }

  async panePid() {
    return Number((await this.tmux("display-message", "-p", "-t", this.target, "#{pane_pid}")).trim());
  }

  async screen() {
    return this.tmux("capture-pane", "-p", "-t", this.target);
  }

  async close() {
    this.#client?.stdin.end();
    await this.tmux("kill-server").catch(() => undefined);
  }
}
