import { z } from "zod";
import { BUILTIN_TOOL_SCHEMAS } from "./builtin-tool-schemas.generated.js";

/**
 * A tool's input schema as JSON Schema, the form every model request carries.
 *
 * Converting a zod schema is slow (~4 ms for nyz's ~55 tools, on the path to every run's first
 * request), so the built-in tools' conversions are made at build time: `precomputed-schemas.test.ts`
 * writes them to `builtin-tool-schemas.generated.ts` and fails while that file is out of date.
 * Looked up by tool name, an entry is used only if its properties are the schema's own (same keys,
 * same descriptions), so another tool that happens to share a built-in's name is still converted.
 */
export function toolJsonSchema(name: string, schema: z.ZodType): Record<string, unknown> {
  return precomputed(name, schema) ?? convertToolSchema(schema);
}

/** zod's conversion, without the `$schema` key the model APIs do not want. */
export function convertToolSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function precomputed(name: string, schema: z.ZodType): Record<string, unknown> | undefined {
  const text = Object.hasOwn(BUILTIN_TOOL_SCHEMAS, name) ? BUILTIN_TOOL_SCHEMAS[name] : undefined;
  if (text === undefined) return undefined;
  // Parsed per tool: each caller gets its own object.
  const json = JSON.parse(text) as Record<string, unknown>;
  return sameProperties(json, schema) ? json : undefined;
}

function sameProperties(json: Record<string, unknown>, schema: z.ZodType): boolean {
  if (!(schema instanceof z.ZodObject)) return false;
  const shape = schema.shape as Record<string, z.ZodType>;
  const properties = (json.properties ?? {}) as Record<string, { description?: unknown }>;
  const keys = Object.keys(shape);
  if (keys.length !== Object.keys(properties).length) return false;
  return keys.every((key) => {
    const property = properties[key];
    if (property === undefined) return false;
    const description = shape[key]?.description;
    return description === undefined || property.description === description;
  });
}
