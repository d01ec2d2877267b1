/**
 * Dotted key paths (`agent.trust.mode`, `mcp.servers.exa.command`, `agent.hooks.0.event`) address
 * values in config objects. Array elements are addressed by their index. A key that itself
 * contains a dot cannot be addressed this way.
 */
export type KeyPathSegment = string | number;

export type PlainObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is PlainObject {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

export function splitKeyPath(keyPath: string): string[] {
  return keyPath
    .split(".")
    .map((segment) => segment.trim())
    .filter((segment) => segment.length > 0);
}

export function joinKeyPath(segments: readonly PropertyKey[]): string {
  return segments.map((segment) => String(segment)).join(".");
}

/** The value at `segments`, or undefined when any step is missing. */
export function getAtPath(root: unknown, segments: readonly KeyPathSegment[]): unknown {
  let current: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      current = current[Number(segment)];
    } else if (isPlainObject(current)) {
      current = Object.hasOwn(current, segment) ? current[String(segment)] : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}

/** Sets the value at `segments`, creating plain tables on the way (replacing non-tables). */
export function setAtPath(root: PlainObject, segments: readonly KeyPathSegment[], value: unknown): void {
  let current: PlainObject | unknown[] = root;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (Array.isArray(current)) {
      const position = Number(segment);
      if (last) current[position] = value;
      else {
        if (!isPlainObject(current[position]) && !Array.isArray(current[position])) current[position] = {};
        current = current[position] as PlainObject | unknown[];
      }
      return;
    }
    const key = String(segment);
    if (last) current[key] = value;
    else {
      const next = current[key];
      if (!isPlainObject(next) && !Array.isArray(next)) current[key] = {};
      current = current[key] as PlainObject | unknown[];
    }
  });
}

/** Removes the key at `segments`; returns whether it existed. */
export function deleteAtPath(root: PlainObject, segments: readonly KeyPathSegment[]): boolean {
  const parent = getAtPath(root, segments.slice(0, -1));
  const key = segments.at(-1);
  if (key === undefined || !isPlainObject(parent) || !Object.hasOwn(parent, String(key))) return false;
  delete parent[String(key)];
  return true;
}

/** A deep copy of plain data (tables, arrays, scalars). */
export function cloneData<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => cloneData(item)) as T;
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cloneData(item)])) as T;
  }
  return value;
}

/** Deep equality of plain data. */
export function dataEquals(left: unknown, right: unknown): boolean {
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => dataEquals(item, right[index]));
  }
  if (isPlainObject(left) && isPlainObject(right)) {
    const leftKeys = Object.keys(left).filter((key) => left[key] !== undefined);
    const rightKeys = Object.keys(right).filter((key) => right[key] !== undefined);
    return leftKeys.length === rightKeys.length && leftKeys.every((key) => dataEquals(left[key], right[key]));
  }
  if (left instanceof Date && right instanceof Date) return left.getTime() === right.getTime();
  return Object.is(left, right);
}

/**
 * Reads one value from a resolved config by dotted key path (`nyz config get agent.trust.mode`).
 * Returns undefined for a path that names nothing.
 */
export function getConfigValue(config: object, keyPath: string): unknown {
  return getAtPath(config, splitKeyPath(keyPath));
}
