import { join } from "node:path";
import { z } from "zod";
import {
  appendNotepadEntry,
  isValidPlanName,
  NOTEPAD_CATEGORIES,
  notepadRelativePath,
  parseNotepadCategory,
} from "../../planning/notepad.js";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import { projectRootOf } from "../seam/tool-types.js";

const inputSchema = z.lazy(() =>
  z.object({
    plan: z.string().min(1).describe("Plan name, e.g. 'auth-refactor' (letters, digits, '.', '_', '-')."),
    category: z
      .string()
      .min(1)
      .describe(`One of ${NOTEPAD_CATEGORIES.join(", ")} (singular is accepted too).`),
    content: z.string().min(1).describe("The note: what was learned, decided, or found wrong."),
  }),
);

export const notepadWriteTool = defineShippedTool({
  name: "notepad_write",
  description:
    "Record a learning, decision or issue in the plan's notepad (.nyzhi/notepads/<plan>.md) so later agents can build on it.",
  inputSchema,
  kind: "memory",
  mutates: true,
  paths: (input, context) =>
    isValidPlanName(input.plan)
      ? [{ path: join(projectRootOf(context), notepadRelativePath(input.plan)), access: "write" }]
      : [],
  async execute(input, context) {
    if (!isValidPlanName(input.plan)) {
      throw new ToolError(`Invalid plan name '${input.plan}': use letters, digits, '.', '_' and '-' only`);
    }
    const category = parseNotepadCategory(input.category);
    if (!category)
      throw new ToolError(`Unknown category '${input.category}': use ${NOTEPAD_CATEGORIES.join(", ")}`);
    const relativePath = notepadRelativePath(input.plan);
    const file = await context.paths.resolve(join(projectRootOf(context), relativePath), "write");
    await appendNotepadEntry(file, input.plan, category, input.content);
    return `Added to ${category} in ${relativePath}`;
  },
});
