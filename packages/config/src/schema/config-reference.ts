import type { z } from "zod";
import { GLOBAL_ONLY_KEYS } from "../layers/global-only-keys.js";
import { PROJECT_POWER_KEYS } from "../layers/project-trust.js";
import { NOT_YET_READ_KEYS } from "../layers/unused-keys.js";
import { CONFIG_KEY_DOCS } from "./config-key-docs.js";
import { configSchema } from "./config-schema.js";

/** What an untrusted project's own config file may do with a key. */
export type ProjectPermission = "yes" | "only to narrow" | "no" | "global file only";

/** One row of the configuration reference (docs/configuration.md). */
export interface ConfigKeyReference {
  /** Dotted path; `<id>` / `<name>` stand for a table key, `[]` for an array-of-tables entry. */
  key: string;
  type: string;
  /** The default as TOML would write it; undefined when the key is unset by default. */
  defaultValue: string | undefined;
  description: string;
  project: ProjectPermission;
}

type Schema = z.core.$ZodType;
type Def = { type: string } & Record<string, unknown>;
const defOf = (schema: Schema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/**
 * Every key of the config schema, walked from the zod schema itself (so a new key shows up here,
 * and the test of docs/configuration.md fails until it is described in config-key-docs.ts).
 */
export function configReference(): ConfigKeyReference[] {
  const rows: ConfigKeyReference[] = [];
  walk(configSchema as unknown as Schema, "", undefined, rows);
  return rows;
}

/** Strips wrappers, keeping the default they carry. */
function unwrap(schema: Schema): { inner: Schema; defaultValue: unknown; hasDefault: boolean } {
  let inner = schema;
  let defaultValue: unknown;
  let hasDefault = false;
  for (;;) {
    const def = defOf(inner);
    if (def.type === "default") {
      if (!hasDefault) {
        defaultValue = def.defaultValue;
        hasDefault = true;
      }
      inner = def.innerType as Schema;
    } else if (
      def.type === "prefault" ||
      def.type === "optional" ||
      def.type === "nullable" ||
      def.type === "catch"
    ) {
      inner = def.innerType as Schema;
    } else if (def.type === "pipe") {
      const output = def.out as Schema;
      inner = defOf(output).type === "transform" ? (def.in as Schema) : output;
    } else if (def.type === "lazy") {
      inner = (def.getter as () => Schema)();
    } else return { inner, defaultValue, hasDefault };
  }
}

/** The fields of an object schema, or of each object in a union (merged). */
function objectFields(schema: Schema): Array<[string, Schema]> | undefined {
  const def = defOf(schema);
  if (def.type === "object") return Object.entries(def.shape as Record<string, Schema>);
  if (def.type === "union") {
    const options = (def.options as Schema[]).map((option) => objectFields(unwrap(option).inner));
    if (options.some((fields) => fields === undefined)) return undefined;
    const merged = new Map<string, Schema>();
    for (const fields of options)
      for (const [key, value] of fields ?? []) if (!merged.has(key)) merged.set(key, value);
    return [...merged.entries()];
  }
  return undefined;
}

function walk(schema: Schema, key: string, parentDefault: unknown, rows: ConfigKeyReference[]): void {
  const { inner, defaultValue, hasDefault } = unwrap(schema);
  const def = defOf(inner);
  const fields = objectFields(inner);
  if (fields) {
    for (const [name, child] of fields) walk(child, key ? `${key}.${name}` : name, undefined, rows);
    if (def.type === "object" && def.catchall) walk(def.catchall as Schema, `${key}.<id>`, undefined, rows);
    return;
  }
  const tableValue = def.type === "record" ? unwrap(def.valueType as Schema).inner : undefined;
  const arrayElement = def.type === "array" ? unwrap(def.element as Schema).inner : undefined;
  const nested = tableValue ?? arrayElement;
  if (nested && objectFields(nested)) {
    rows.push(
      row(key, def.type === "record" ? "table of tables" : "array of tables", hasDefault, defaultValue),
    );
    walk(nested, def.type === "record" ? `${key}.<name>` : `${key}[]`, parentDefault, rows);
    return;
  }
  rows.push(row(key, typeName(inner), hasDefault, defaultValue));
}

function row(key: string, type: string, hasDefault: boolean, defaultValue: unknown): ConfigKeyReference {
  return {
    key,
    type,
    defaultValue: hasDefault ? tomlValue(defaultValue) : undefined,
    description: withNotReadYet(key, CONFIG_KEY_DOCS[key] ?? ""),
    project: projectPermission(key),
  };
}

/** A key nothing reads yet says so (and when it will), as its warning does. */
function withNotReadYet(key: string, description: string): string {
  const generic = key.replace(/<[a-z]+>/g, "*");
  const entry = NOT_YET_READ_KEYS.find((item) => generic === item.key || generic.startsWith(`${item.key}.`));
  return entry ? `${description} **Not read yet**: takes effect ${entry.takesEffect}.` : description;
}

function typeName(schema: Schema): string {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      return "string";
    case "number":
      return def.format === "safeint" ? "integer" : "number";
    case "boolean":
      return "boolean";
    case "enum":
      return Object.values(def.entries as Record<string, string>)
        .map((value) => JSON.stringify(value))
        .join(" \\| ");
    case "literal":
      return (def.values as unknown[]).map((value) => JSON.stringify(value)).join(" \\| ");
    case "array":
      return `list of ${typeName(unwrap(def.element as Schema).inner)}`;
    case "record":
      return `table of ${typeName(unwrap(def.valueType as Schema).inner)}`;
    case "union":
      return (def.options as Schema[]).map((option) => typeName(unwrap(option).inner)).join(" or ");
    default:
      return def.type;
  }
}

function tomlValue(value: unknown): string {
  if (typeof value === "function") return tomlValue((value as () => unknown)());
  if (value === undefined) return "unset";
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    return entries.length === 0
      ? "{}"
      : `{ ${entries.map(([k, v]) => `${k} = ${tomlValue(v)}`).join(", ")} }`;
  }
  return JSON.stringify(value);
}

function matchesPattern(pattern: string, key: string): boolean {
  const patternParts = pattern.split(".");
  const keyParts = key.split(".");
  if (keyParts.length < patternParts.length) return false;
  return patternParts.every(
    (part, index) =>
      part === "*" ||
      part === keyParts[index] ||
      keyParts[index] === "<id>" ||
      `${part}[]` === keyParts[index],
  );
}

function projectPermission(key: string): ProjectPermission {
  if (GLOBAL_ONLY_KEYS.some((globalKey) => key === globalKey || key.startsWith(`${globalKey}.`))) {
    return "global file only";
  }
  const power = PROJECT_POWER_KEYS.find(([pattern]) => matchesPattern(pattern, key));
  if (!power) return "yes";
  return power[1] ? "only to narrow" : "no";
}

/** docs/configuration.md's tables, one per top-level section. */
export function renderConfigReference(rows: readonly ConfigKeyReference[] = configReference()): string {
  const sections = new Map<string, ConfigKeyReference[]>();
  for (const reference of rows) {
    const section = reference.key.split(/[.[]/, 1)[0] ?? reference.key;
    sections.set(section, [...(sections.get(section) ?? []), reference]);
  }
  const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
  const out: string[] = [];
  for (const [section, sectionRows] of sections) {
    out.push(
      `## \`[${section}]\``,
      "",
      "| key | type | default | description | untrusted project |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const reference of sectionRows) {
      out.push(
        `| \`${reference.key}\` | ${reference.type.includes("\\|") ? reference.type : cell(reference.type)} | ${reference.defaultValue === undefined ? "unset" : `\`${cell(reference.defaultValue)}\``} | ${cell(reference.description)} | ${reference.project} |`,
      );
    }
    out.push("");
  }
  return out.join("\n");
}
