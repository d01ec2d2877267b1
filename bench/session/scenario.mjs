// The scripted session of bench/session and its A/B (exec-ab.mjs): `steps` model steps, each with
// one tool call (a grep of the workspace, then a read of notes.txt, alternately), then an answer.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The mock model's rules for a session of `steps` tool-using steps. */
export function scenario(steps) {
  const rules = [];
  for (let step = 1; step <= steps; step++) {
    const tool =
      step % 2 === 0
        ? { name: "read", arguments: { file_path: "notes.txt" } }
        : { name: "grep", arguments: { pattern: "line", path: "." } };
    rules.push({
      match: { requestIndex: step },
      response: { text: `Step ${step}.`, toolCalls: [tool], usage: { inputTokens: 1000, outputTokens: 20 } },
    });
  }
  rules.push({ response: { text: "All done.", usage: { inputTokens: 1000, outputTokens: 5 } } });
  return { rules };
}

/** A fresh workspace holding the file the steps read and grep, and a fresh nyzhi home. */
export async function sessionFolders(prefix) {
  const workspace = await mkdtemp(join(tmpdir(), `${prefix}-`));
  await writeFile(
    join(workspace, "notes.txt"),
    Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n"),
  );
  const home = await mkdtemp(join(tmpdir(), `${prefix}-home-`));
  return { workspace, home };
}
