import { z } from "zod";
import { BUILTIN_TOOL_SCHEMAS } from "./builtin-tool-schemas.generated.js";

/**
 * A tool's input schema as JSON Schema, the form every model request carries.
 *
 * Converting a zod schema is slow (~4 ms for nyz's ~55 tools, on the path to every run's first
 * request), so the shipped tools' conversions are made at build time: `precomputed-schemas.test.ts`
 * writes them to `builtin-tool-schemas.generated.ts` and fails while that file is out of date. Only
 * tools made with `defineShippedTool` use the table (looked up by name); any other tool, whatever
 * its name, is converted from its own schema.
 */
export function toolJsonSchema(
  name: string,
  schema: z.ZodType,
  options: { shipped: boolean },
): Record<string, unknown> {
  const text =
    options.shipped && Object.hasOwn(BUILTIN_TOOL_SCHEMAS, name) ? BUILTIN_TOOL_SCHEMAS[name] : undefined;
  // Parsed per tool: each caller gets its own object.
  if (text !== undefined) return JSON.parse(text) as Record<string, unknown>;
  runtimeConversions.count += 1;
  return convertToolSchema(schema);
}

/** How many tool schemas were converted at run time (the test checks shipped tools never are). */
export const runtimeConversions = { count: 0 };

/** zod's conversion, without the `$schema` key the model APIs do not want. */
export function convertToolSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
