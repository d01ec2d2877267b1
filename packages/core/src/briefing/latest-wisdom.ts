import { join } from "node:path";
import { listNotepads, NOTEPADS_DIRECTORY, readNotepad } from "../planning/notepad.js";

/**
 * The most recently modified plan notepad under `<projectRoot>/.nyzhi/notepads`, with empty
 * category sections removed, for a child's "Accumulated Wisdom". Undefined when there is none or
 * it has no entries.
 */
export async function latestWisdom(projectRoot: string): Promise<string | undefined> {
  const directory = join(projectRoot, NOTEPADS_DIRECTORY);
  const [newest] = await listNotepads(directory);
  if (!newest) return undefined;
  const text = await readNotepad(join(directory, `${newest.plan}.md`));
  if (text === undefined) return undefined;
  const kept = dropEmptySections(text).trim();
  return kept.includes("\n## ") ? kept : undefined;
}

/** Removes `## Heading` sections whose body is blank. */
function dropEmptySections(text: string): string {
  const lines = text.split("\n");
  const kept: string[] = [];
  let section: string[] = [];
  const flush = () => {
    if (section.length === 0) return;
    if (!section[0]!.startsWith("## ") || section.slice(1).some((line) => line.trim() !== "")) {
      kept.push(...section);
    }
    section = [];
  };
  for (const line of lines) {
    if (line.startsWith("## ")) flush();
    section.push(line);
  }
  flush();
  return kept.join("\n");
}
