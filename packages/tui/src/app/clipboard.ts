/**
 * The OSC 52 escape that asks the terminal to put `text` on the system clipboard. It works over
 * SSH and needs no helper program; terminals that do not support it ignore it (tmux passes it on
 * with `set-clipboard on`). Nothing is drawn, so ink's frame is not disturbed.
 */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}

/** Writes the OSC 52 escape for `text` to the terminal. */
export function copyToClipboard(stdout: Pick<NodeJS.WriteStream, "write">, text: string): void {
  stdout.write(osc52(text));
}
