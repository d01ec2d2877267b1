import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Environment } from "@nyzhi/config";

/** The editor `/editor` opens: `$VISUAL`, else `$EDITOR`, else `vi`. */
export function editorCommand(env: Environment): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";
}

/**
 * `/editor`: writes `draft` to a temp file, runs the editor on it in this terminal (the app waits;
 * raw mode is handed over and taken back), and returns what the file holds afterwards; undefined
 * when the editor failed (its exit code in `error`).
 */
export async function composeInEditor(
  draft: string,
  env: Environment,
  stdin: NodeJS.ReadStream,
): Promise<{ text: string } | { error: string }> {
  const directory = await mkdtemp(join(tmpdir(), "nyzhi-edit-"));
  const file = join(directory, `nyzhi_edit_${process.pid}.md`);
  await writeFile(file, draft);
  const editor = editorCommand(env);
  const raw = stdin.isTTY && stdin.isRaw;
  try {
    if (raw) stdin.setRawMode(false);
    const result = spawnSync(`${editor} ${JSON.stringify(file)}`, {
      shell: true,
      stdio: "inherit",
      env: env as NodeJS.ProcessEnv,
    });
    if (result.error) return { error: `${editor} did not start: ${result.error.message}` };
    if (result.status !== 0) return { error: `${editor} exited with ${result.status ?? result.signal}` };
    return { text: (await readFile(file, "utf8")).replace(/\n$/, "") };
  } finally {
    if (raw) stdin.setRawMode(true);
    await rm(directory, { recursive: true, force: true });
  }
}
