/** How one `nyz doctor` check came out. */
export type DoctorState = "ok" | "warning" | "problem";

/** One line of `nyz doctor` (and the app's `/doctor`). */
export interface DoctorCheck {
  /** Stable id: `node`, `sandbox`, `ripgrep`, `git`, `tmux`, `keychain`, `credentials`, `proxy`, `trust`, `index`, `config`. */
  id: string;
  /** What was checked, and what was found (`Node 20.19.0`, `bubblewrap 0.11.0: the sandbox works`). */
  summary: string;
  /**
   * `problem`: something nyzhi needs is missing or broken (the command exits 1). `warning`: it runs,
   * with less (no sandbox, slower search, no keychain).
   */
  state: DoctorState;
  /** What to do about a warning or a problem. */
  fix?: string;
  /** Further lines (config warnings, per-provider credentials). */
  details?: string[];
}

export interface DoctorReport {
  checks: DoctorCheck[];
  /** True when a check is a `problem`: `nyz doctor` exits 1. */
  failed: boolean;
}
