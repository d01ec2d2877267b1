/**
 * How login flows talk to the user. The CLI prints to stderr and reads stdin; the TUI renders
 * a dialog; tests script it.
 */
export interface LoginIo {
  /** One line of progress for the user (URLs, device codes, results). Never given a secret. */
  print(line: string): void;
  /** Asks for a line of input; `secret` asks the host not to echo it. */
  prompt(question: string, options: { secret: boolean }): Promise<string>;
  /** Opens a URL in a browser. Default: `openBrowser` (xdg-open/open), best effort. */
  openUrl?(url: string): void | Promise<void>;
}
