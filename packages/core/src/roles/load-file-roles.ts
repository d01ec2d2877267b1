import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage } from "@nyzhi/config";
import { parseRoleFile } from "./parse-role-file.js";
import type { RoleDefinition } from "./role-definition.js";
import type { RoleWarning } from "./role-errors.js";

/** Agent-file folders under the project root, highest precedence first. */
export const ROLE_FILE_DIRECTORIES = [".nyzhi/agents", ".claude/agents"] as const;

export interface LoadedRoles {
  roles: RoleDefinition[];
  warnings: RoleWarning[];
}

/**
 * Loads `<root>/.nyzhi/agents/*.md` and `<root>/.claude/agents/*.md`. A role is keyed by its name
 * (front matter `name`, else the file stem), so a `.nyzhi` file wins over a `.claude` file of the
 * same name and records it in `overrides`. Within one folder the first file in name order wins and
 * the others are reported. Missing folders are fine; unreadable or broken files are skipped with a
 * warning. Paths in sources and warnings are relative to `projectRoot`.
 */
export async function loadFileRoles(projectRoot: string): Promise<LoadedRoles> {
  const warnings: RoleWarning[] = [];
  const byName = new Map<string, RoleDefinition>();
  for (const directory of ROLE_FILE_DIRECTORIES) {
    const inDirectory = new Map<string, RoleDefinition>();
    for (const fileName of await listMarkdownFiles(join(projectRoot, directory))) {
      const path = `${directory}/${fileName}`;
      let text: string;
      try {
        text = await readFile(join(projectRoot, path), "utf8");
      } catch (error) {
        warnings.push({ path, message: `Skipped agent file ${path}: ${errorMessage(error)}` });
        continue;
      }
      const parsed = await parseRoleFile({ text, path, stem: fileName.slice(0, -3) });
      warnings.push(...parsed.warnings);
      const role = parsed.role;
      if (!role) continue;
      const earlier = inDirectory.get(role.name);
      if (earlier) {
        warnings.push({
          path,
          role: role.name,
          message: `Skipped agent file ${path}: role '${role.name}' is already defined by ${sourcePath(earlier)}`,
        });
        continue;
      }
      inDirectory.set(role.name, role);
    }
    for (const [name, role] of inDirectory) {
      const winner = byName.get(name);
      if (winner) byName.set(name, { ...winner, overrides: [...(winner.overrides ?? []), role.source] });
      else byName.set(name, role);
    }
  }
  return { roles: [...byName.values()], warnings };
}

async function listMarkdownFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(".md"))
    .map((entry) => entry.name)
    .sort();
}

function sourcePath(role: RoleDefinition): string {
  return role.source.kind === "file" ? role.source.path : role.source.kind;
}
