import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { compareText, writeFileAtomic } from "@nyzhi/config";

/**
 * Plan notepads: what agents learned, decided and ran into while working on a plan, kept in
 * `<project>/.nyzhi/notepads/<plan>.md` (one file, one section per category) so later agents
 * (and subagents' "accumulated wisdom") can read it.
 */
export const NOTEPAD_CATEGORIES = ["learnings", "decisions", "issues"] as const;
export type NotepadCategory = (typeof NOTEPAD_CATEGORIES)[number];

/** Notepads directory relative to the project root. */
export const NOTEPADS_DIRECTORY = ".nyzhi/notepads";

const PLAN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Whether `plan` is a safe notepad name (letters, digits, `.`, `_`, `-`; no path separators). */
export function isValidPlanName(plan: string): boolean {
  return PLAN_NAME.test(plan) && !plan.includes("..");
}

/** Path of a plan's notepad relative to the project root. */
export function notepadRelativePath(plan: string): string {
  return `${NOTEPADS_DIRECTORY}/${plan}.md`;
}

/** Accepts singular or plural, any case: `learning`, `Decisions`, `issue`. */
export function parseNotepadCategory(value: string): NotepadCategory | undefined {
  const lower = value.trim().toLowerCase();
  return NOTEPAD_CATEGORIES.find((category) => category === lower || category === `${lower}s`);
}

const locks = new Map<string, Promise<unknown>>();

/** Appends a timestamped entry to a category of the notepad at `file`, creating it when missing. */
export async function appendNotepadEntry(
  file: string,
  plan: string,
  category: NotepadCategory,
  entry: string,
  now: Date = new Date(),
): Promise<void> {
  const previous = locks.get(file) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined)
    .then(async () => {
      const text = await readFile(file, "utf8").catch(() => "");
      const sections = parseSections(text);
      const stamp = now.toISOString().replace(/\.\d{3}Z$/, "Z");
      sections[category] = [...trimTrailingBlank(sections[category]), "", `### ${stamp}`, entry.trim()];
      await writeFileAtomic(file, renderNotepad(plan, sections), { fsync: false });
    });
  locks.set(file, next);
  try {
    await next;
  } finally {
    if (locks.get(file) === next) locks.delete(file);
  }
}

/** The notepad's text, or undefined when it does not exist. */
export async function readNotepad(file: string): Promise<string | undefined> {
  return readFile(file, "utf8").catch(() => undefined);
}

/** Notepads under `directory`, newest first (by modification time). */
export async function listNotepads(directory: string): Promise<{ plan: string; modifiedAt: Date }[]> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const notepads = await Promise.all(
    names
      .filter((name) => name.endsWith(".md"))
      .map(async (name) => ({
        plan: name.slice(0, -3),
        modifiedAt: (await stat(join(directory, name))).mtime,
      })),
  );
  return notepads.sort(
    (left, right) =>
      right.modifiedAt.getTime() - left.modifiedAt.getTime() || compareText(left.plan, right.plan),
  );
}

type Sections = Record<NotepadCategory | "preamble", string[]>;

function parseSections(text: string): Sections {
  const sections: Sections = { preamble: [], learnings: [], decisions: [], issues: [] };
  let current: keyof Sections = "preamble";
  for (const line of text.split("\n")) {
    const heading = /^## (\w+)\s*$/.exec(line);
    const category = heading ? parseNotepadCategory(heading[1]!) : undefined;
    if (category) {
      current = category;
      continue;
    }
    if (current === "preamble" && line.startsWith("# Notepad:")) continue;
    sections[current].push(line);
  }
  return sections;
}

function renderNotepad(plan: string, sections: Sections): string {
  const parts = [`# Notepad: ${plan}`, ...trimBlank(sections.preamble)];
  for (const category of NOTEPAD_CATEGORIES) {
    parts.push(
      "",
      `## ${category[0]!.toUpperCase()}${category.slice(1)}`,
      ...trimTrailingBlank(sections[category]),
    );
  }
  return `${parts.join("\n")}\n`;
}

function trimTrailingBlank(lines: string[]): string[] {
  const copy = [...lines];
  while (copy.length > 0 && copy.at(-1)!.trim() === "") copy.pop();
  return copy;
}

function trimBlank(lines: string[]): string[] {
  const copy = trimTrailingBlank(lines);
  while (copy.length > 0 && copy[0]!.trim() === "") copy.shift();
  return copy;
}
