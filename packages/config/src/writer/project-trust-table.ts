import { stringify } from "smol-toml";
import { writeFileAtomic } from "../base/write-file-atomic.js";
import { cloneData, deleteAtPath, getAtPath, type PlainObject, setAtPath } from "../key-paths/key-path.js";
import { projectTrustKey } from "../layers/project-trust.js";
import { parseTomlDocument } from "../toml/parse-toml-document.js";
import { scanTomlStructure } from "../toml/scan-toml-structure.js";
import { editTomlText } from "./edit-toml-text.js";
import { readExisting } from "./read-existing-config.js";
import { sameTomlData } from "./same-toml-data.js";
import { withConfigFileLock } from "./with-config-file-lock.js";

export interface ProjectTrustChange {
  file: string;
  /** The project root as recorded (absolute). */
  project: string;
  /** False when nothing changed (already trusted / not trusted). */
  changed: boolean;
  /** False when the file had to be re-serialised (its comments were lost). */
  preservedComments: boolean;
}

/**
 * `nyz trust`: records `[projects."<root>"] trusted = true` in the global config file, or with
 * `trusted: false` (`nyz trust --remove`) removes the project's table. The read-modify-write holds
 * the file's lock and the write is atomic; other lines and comments are kept (the file is
 * re-serialised only when an in-place edit cannot express the change). An unparsable file is a
 * ConfigError and is left untouched.
 */
export async function setProjectTrust(
  file: string,
  projectRoot: string,
  options: { trusted: boolean },
): Promise<ProjectTrustChange> {
  const project = projectTrustKey(projectRoot);
  const path = ["projects", project];
  return withConfigFileLock(file, async () => {
    const { text, mode } = await readExisting(file);
    const document = parseTomlDocument(text, file);
    const current = getAtPath(document, [...path, "trusted"]) === true;
    const unchanged = { file, project, changed: false, preservedComments: true };
    if (options.trusted === current && (options.trusted || getAtPath(document, path) === undefined)) {
      return unchanged;
    }
    const intended = cloneData(document);
    if (options.trusted) setAtPath(intended, [...path, "trusted"], true);
    else deleteAtPath(intended, path);
    const edited = options.trusted ? editTomlText(text, [...path, "trusted"], true) : cutTable(text, path);
    let output = edited;
    let preservedComments = true;
    if (!parsesTo(edited, intended)) {
      output = stringify(intended);
      preservedComments = false;
    }
    await writeFileAtomic(file, output, mode === undefined ? {} : { mode });
    return { file, project, changed: true, preservedComments };
  });
}

/** Drops the table at `path` (its header and keys, and keys dotted into it from a parent table). */
function cutTable(text: string, path: readonly string[]): string {
  const within = (entryPath: readonly string[]) =>
    path.every((segment, index) => entryPath[index] === segment);
  const drop = new Set<number>();
  let inTable = false;
  for (const entry of scanTomlStructure(text)) {
    if (entry.kind !== "key") {
      inTable = within(entry.path);
      if (inTable) drop.add(entry.line);
      continue;
    }
    if (inTable || within(entry.path)) {
      for (let line = entry.line; line <= entry.endLine; line++) drop.add(line);
    }
  }
  const kept = text.split("\n").filter((_line, index) => !drop.has(index + 1));
  const joined = kept.join("\n").replace(/\n{3,}/g, "\n\n");
  return joined.trim() === "" ? "" : joined.replace(/\n+$/, "\n");
}

function parsesTo(text: string, intended: PlainObject): boolean {
  try {
    return sameTomlData(text, intended);
  } catch {
    return false;
  }
}
