import type { z } from "zod";
import { isPlainObject } from "../key-paths/key-path.js";

export interface UnknownKey {
  /** Path of the unknown key, e.g. `["agent", "max_step"]`. */
  path: string[];
  /** A known key path close to it (`agent.max_steps`), when one is. */
  suggestion?: string;
}

/** The parts of zod's internal definition this walker reads (stable across zod 4). */
interface SchemaDefinition {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  out?: z.ZodType;
}

function definitionOf(schema: z.ZodType): SchemaDefinition {
  return (schema as unknown as { _zod: { def: SchemaDefinition } })._zod.def;
}

const WRAPPERS = new Set(["optional", "default", "prefault", "nullable", "readonly", "catch", "nonoptional"]);

/** Strips wrappers (optional, default, pipe …) down to the schema that decides the shape. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const definition = definitionOf(current);
    if (WRAPPERS.has(definition.type) && definition.innerType) current = definition.innerType;
    else if (definition.type === "pipe" && definition.out) current = definition.out;
    else return current;
  }
}

/** The known keys of an object schema (a union of objects contributes every option's keys). */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const definition = definitionOf(schema);
  if (definition.type === "object") return definition.shape;
  if (definition.type === "union" && definition.options) {
    const merged: Record<string, z.ZodType> = {};
    for (const option of definition.options) Object.assign(merged, shapeOf(unwrap(option)) ?? {});
    return merged;
  }
  return undefined;
}

/**
 * Every key in `value` the schema does not know, depth first. Unknown keys are warnings, never
 * errors: zod drops them, and the caller reports them with `suggestion`.
 */
export function findUnknownKeys(schema: z.ZodType, value: unknown, path: string[] = []): UnknownKey[] {
  const resolved = unwrap(schema);
  const definition = definitionOf(resolved);
  if (definition.type === "array" && definition.element && Array.isArray(value)) {
    const element = definition.element;
    return value.flatMap((item, index) => findUnknownKeys(element, item, [...path, String(index)]));
  }
  if (!isPlainObject(value)) return [];
  if (definition.type === "record" && definition.valueType) {
    const valueType = definition.valueType;
    return Object.entries(value).flatMap(([key, item]) => findUnknownKeys(valueType, item, [...path, key]));
  }
  const shape = shapeOf(resolved);
  if (!shape) return [];
  const found: UnknownKey[] = [];
  for (const [key, item] of Object.entries(value)) {
    const catchallTypo =
      !shape[key] &&
      definition.catchall !== undefined &&
      !isPlainObject(item) &&
      suggestKey(key, shape, path, false);
    const child = catchallTypo ? undefined : (shape[key] ?? definition.catchall);
    if (child) {
      found.push(...findUnknownKeys(child, item, [...path, key]));
      continue;
    }
    const suggestion = suggestKey(key, shape, path);
    found.push(suggestion ? { path: [...path, key], suggestion } : { path: [...path, key] });
  }
  return found;
}

/**
 * A sibling key within a small edit distance, else (with `lookDeeper`) a same-named key one table
 * down. A scalar under a catch-all map (`[provider] defualt = "x"`) close to a real key is
 * reported as that key's typo rather than as a malformed map entry.
 */
function suggestKey(
  key: string,
  shape: Record<string, z.ZodType>,
  path: string[],
  lookDeeper = true,
): string | undefined {
  const limit = Math.max(1, Math.floor(key.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const candidate of Object.keys(shape)) {
    const distance = editDistance(key, candidate);
    if (distance <= limit && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  if (best) return [...path, best.name].join(".");
  if (!lookDeeper) return undefined;
  for (const [name, child] of Object.entries(shape)) {
    const childShape = shapeOf(unwrap(child));
    if (childShape && Object.hasOwn(childShape, key)) return [...path, name, key].join(".");
  }
  return undefined;
}

/** Edit distance counting insertions, deletions, substitutions and adjacent transpositions. */
export function editDistance(left: string, right: string): number {
  const rows = left.length + 1;
  const columns = right.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  const at = (row: number, column: number): number => table[row]?.[column] ?? 0;
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      let best = Math.min(at(row - 1, column) + 1, at(row, column - 1) + 1, at(row - 1, column - 1) + cost);
      if (
        row > 1 &&
        column > 1 &&
        left[row - 1] === right[column - 2] &&
        left[row - 2] === right[column - 1]
      ) {
        best = Math.min(best, at(row - 2, column - 2) + 1);
      }
      (table[row] as number[])[column] = best;
    }
  }
  return at(left.length, right.length);
}
