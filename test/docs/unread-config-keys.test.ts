import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NOT_YET_READ_KEYS } from "../../packages/config/src/layers/unused-keys.js";
import { configReference } from "../../packages/config/src/schema/config-reference.js";

/**
 * Keeps `NOT_YET_READ_KEYS` (the keys whose setting warns "not read yet") true: a key is taken as
 * read when some non-test source outside the schema accesses its last segment as a property
 * (`.theme`, `{ theme }`, `"theme"`) in a file that also accesses its parent (`.tui`, `{ tui }`).
 * A listed key that is read fails (its warning would be stale), and so does an unlisted key that
 * nothing reads (setting it would silently do nothing).
 */
const root = new URL("../../", import.meta.url).pathname;

function sourceFiles(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!["__fixtures__", "testing", "test-support", "schema"].includes(entry.name))
        files.push(...sourceFiles(path));
    } else if (
      /\.tsx?$/.test(entry.name) &&
      !/\.test\.tsx?$/.test(entry.name) &&
      entry.name !== "unused-keys.ts"
    ) {
      files.push(path);
    }
  }
  return files;
}

/** A key's whole path in a string (`"agent.trust.mode"`: a policy table naming it) is not a read. */
const KEY_PATH_STRING = /["'`][a-z_]+(?:\.[a-z_*<>[\]]+)+["'`]/g;
const sources = ["config", "auth", "provider", "index", "core", "tui", "cli"].flatMap((name) =>
  sourceFiles(join(root, "packages", name, "src")).map((file) =>
    readFileSync(file, "utf8").replace(KEY_PATH_STRING, '""'),
  ),
);

const accessOf = (name: string) => new RegExp(`[.?]${name}\\b|[{,]\\s*${name}\\s*[,}:=]|["'\`]${name}["'\`]`);

function isRead(key: string): boolean {
  const parts = key
    .split(".")
    .filter((part) => !part.startsWith("<"))
    .map((part) => part.replace("[]", ""));
  const leaf = accessOf(parts.at(-1) ?? key);
  const parent = parts.length > 1 ? accessOf(parts.at(-2) ?? "") : undefined;
  return sources.some((text) => leaf.test(text) && (!parent || parent.test(text)));
}

/** `provider.<id>.temperature` → `provider.*.temperature`, as NOT_YET_READ_KEYS writes it. */
const generic = (key: string) => key.replace(/<[a-z]+>/g, "*");
const listed = (key: string) =>
  NOT_YET_READ_KEYS.some(
    ({ key: prefix }) => generic(key) === prefix || generic(key).startsWith(`${prefix}.`),
  );

describe("the keys that warn 'not read yet'", () => {
  const keys = configReference().map((row) => row.key);

  it("are exactly the schema's keys that no source reads", () => {
    const unread = keys.filter((key) => !isRead(key));
    const warned = keys.filter(listed);
    expect(warned.sort()).toEqual(unread.sort());
  });

  it("name keys of the schema", () => {
    for (const { key } of NOT_YET_READ_KEYS)
      expect(
        keys.map(generic).some((schemaKey) => schemaKey === key || schemaKey.startsWith(`${key}.`)),
      ).toBe(true);
  });
});
