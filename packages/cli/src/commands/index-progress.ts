import type { IndexProgress, UpdateResult } from "@nyzhi/index";
import type { CommandIo } from "../io/output.js";

/** Redraw the bar at most this often on a terminal, ms. */
const BAR_INTERVAL_MS = 100;
/** Print a plain progress line at most this often when piped, ms. */
const LINE_INTERVAL_MS = 2000;
const BAR_WIDTH = 24;

const count = (value: number): string => value.toLocaleString("en-US");

/** `41 s`, `3 min 05 s`, `1 h 02 min`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** Files per second and the time left, from the files done in `elapsedMs`. */
export function progressRate(
  progress: IndexProgress,
  elapsedMs: number,
): { perSecond: number; etaMs: number | undefined } {
  const perSecond = elapsedMs > 0 ? (progress.filesDone * 1000) / elapsedMs : 0;
  const left = progress.filesTotal - progress.filesDone;
  return { perSecond, etaMs: perSecond > 0 ? (left / perSecond) * 1000 : undefined };
}

/** `1,234/5,000 files · 9,876 chunks · 120 files/s · ETA 31 s`. */
export function progressText(progress: IndexProgress, elapsedMs: number): string {
  if (progress.phase === "walking") return "listing files…";
  if (progress.phase === "finishing")
    return `${count(progress.filesDone)} files · ${count(progress.chunksDone)} chunks · finishing…`;
  const { perSecond, etaMs } = progressRate(progress, elapsedMs);
  const parts = [
    `${count(progress.filesDone)}/${count(progress.filesTotal)} files`,
    `${count(progress.chunksDone)} chunks`,
  ];
  if (progress.embedded > 0) parts.push(`${count(progress.embedded)} embedded`);
  if (perSecond > 0) parts.push(`${perSecond >= 10 ? Math.round(perSecond) : perSecond.toFixed(1)} files/s`);
  if (etaMs !== undefined && progress.filesDone < progress.filesTotal)
    parts.push(`ETA ${formatDuration(etaMs)}`);
  return parts.join(" · ");
}

/** `[██████░░░░░░] ` sized to the share of files done. */
export function progressBar(progress: IndexProgress): string {
  const share = progress.filesTotal > 0 ? Math.min(1, progress.filesDone / progress.filesTotal) : 0;
  const filled = Math.round(share * BAR_WIDTH);
  return `[${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}]`;
}

/**
 * Shows an update's progress on stderr: one redrawn bar on a terminal, a plain line every two
 * seconds when piped (a log or CI keeps readable lines, not carriage returns).
 */
export class ProgressReporter {
  private readonly terminal: boolean;
  private indexingStarted: number | undefined;
  private lastDrawn = 0;
  private drawn = false;

  constructor(
    private readonly io: CommandIo,
    private readonly now: () => number = Date.now,
  ) {
    this.terminal = io.isTerminal?.stderr === true;
  }

  readonly onProgress = (progress: IndexProgress): void => {
    const now = this.now();
    if (progress.phase === "indexing" && this.indexingStarted === undefined) {
      this.indexingStarted = now;
      // Piped, a quick update prints no progress at all: the first line comes after LINE_INTERVAL_MS.
      if (!this.terminal) {
        this.lastDrawn = now;
        this.drawn = true;
      }
    }
    if (progress.phase === "indexing" && progress.filesTotal === 0) return;
    const elapsed = now - (this.indexingStarted ?? now);
    const final = progress.phase === "finishing";
    if (this.terminal) {
      if (!final && now - this.lastDrawn < BAR_INTERVAL_MS && this.drawn) return;
      this.io.stderr(`\r\x1b[2K${progressBar(progress)} ${progressText(progress, elapsed)}`);
      this.drawn = true;
    } else {
      if (progress.phase !== "indexing" || (now - this.lastDrawn < LINE_INTERVAL_MS && this.drawn)) return;
      this.io.stderr(`indexing: ${progressText(progress, elapsed)}\n`);
      this.drawn = true;
    }
    this.lastDrawn = now;
  };

  /** Removes the bar before the summary is printed. */
  finish(): void {
    if (this.terminal && this.drawn) this.io.stderr("\r\x1b[2K");
    this.drawn = false;
  }
}

/** The summary line of an update. */
export function summarizeUpdate(result: UpdateResult): string {
  const seconds = `${(result.durationMs / 1000).toFixed(1)} s`;
  const skipped = Object.entries(result.skipped)
    .filter(([, value]) => value > 0)
    .map(
      ([reason, value]) =>
        `${count(value)} ${reason.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`)}`,
    );
  const skippedText = skipped.length > 0 ? ` Skipped: ${skipped.join(", ")}.` : "";
  if (result.aborted) {
    return `Stopped after ${seconds}: the index keeps ${count(result.files)} files (${count(result.chunks)} chunks); run \`nyz index\` to go on.`;
  }
  if (result.indexed === 0 && result.removed === 0) {
    return `The index is up to date: ${count(result.files)} files, ${count(result.chunks)} chunks (${seconds}).${skippedText}`;
  }
  const embedded = result.embedded > 0 ? `, ${count(result.embedded)} chunks embedded` : "";
  const removed = result.removed > 0 ? `, ${count(result.removed)} removed` : "";
  const rebuilt = result.rebuilt ? " Rebuilt for the new embedder." : "";
  return `Indexed ${count(result.indexed)} files${embedded}${removed} in ${seconds}: ${count(result.files)} files, ${count(result.chunks)} chunks in the index.${rebuilt}${skippedText}`;
}
