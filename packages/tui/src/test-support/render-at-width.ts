import { EventEmitter } from "node:events";
import { render } from "ink";
import type { ReactElement } from "react";
import { displayWidth } from "../text/display-width.js";

/** A fake terminal output with a settable width, recording each frame ink writes. */
class FakeStdout extends EventEmitter {
  frames: string[] = [];
  constructor(public columns: number) {
    super();
  }
  rows = 24;
  write = (frame: string) => {
    this.frames.push(frame);
    return true;
  };
  lastFrame = () => this.frames.at(-1);
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write = (data: string) => {
    this.data = data;
    this.emit("readable");
  };
  read = () => {
    const data = this.data;
    this.data = null;
    return data;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/**
 * Renders like ink-testing-library's `render`, but on a terminal `columns` wide (that library's
 * fake terminal is fixed at 100 columns). `resize` changes the width and tells ink, as a real
 * terminal's SIGWINCH does.
 */
export function renderAtWidth(tree: ReactElement, columns: number) {
  const stdout = new FakeStdout(columns);
  const stdin = new FakeStdin();
  const instance = render(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStdout(columns) as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    lastFrame: stdout.lastFrame,
    /** Everything written to the terminal, in order. */
    frames: stdout.frames,
    stdin,
    rerender: instance.rerender,
    unmount: instance.unmount,
    resize(width: number) {
      stdout.columns = width;
      stdout.emit("resize");
    },
  };
}

/** The widest line of a frame, in terminal cells (ANSI codes do not count). */
export function widestLine(frame: string | undefined): number {
  return Math.max(0, ...(frame ?? "").split("\n").map((line) => displayWidth(line)));
}
