import { parse } from "smol-toml";
import { dataEquals, isPlainObject, type PlainObject } from "../key-paths/key-path.js";

/**
 * Whether TOML `text` holds the same data as `intended`, empty tables aside (a table left with no
 * entries means the same as none). Throws what smol-toml throws when `text` is not TOML.
 */
export function sameTomlData(text: string, intended: PlainObject): boolean {
  return dataEquals(withoutEmptyTables(parse(text)), withoutEmptyTables(intended));
}

/** A copy without empty tables. */
function withoutEmptyTables(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const kept: PlainObject = {};
  for (const [key, item] of Object.entries(value)) {
    const pruned = withoutEmptyTables(item);
    if (isPlainObject(pruned) && Object.keys(pruned).length === 0) continue;
    kept[key] = pruned;
  }
  return kept;
}
