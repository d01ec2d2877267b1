import { join } from "node:path";
import { z } from "zod";
import {
  isValidPlanName,
  listNotepads,
  NOTEPADS_DIRECTORY,
  notepadRelativePath,
  readNotepad,
} from "../../planning/notepad.js";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import { projectRootOf } from "../seam/tool-types.js";

const inputSchema = z.lazy(() =>
  z.object({
    plan: z.string().min(1).optional().describe("Plan name. Leave out to list the notepads."),
  }),
);

export const notepadReadTool = defineShippedTool({
  name: "notepad_read",
  description:
    "Read a plan's notepad (learnings, decisions, issues), or list the notepads when no plan is given.",
  inputSchema,
  kind: "read",
  mutates: false,
  paths: (input, context) => [
    {
      path: join(
        projectRootOf(context),
        input.plan && isValidPlanName(input.plan) ? notepadRelativePath(input.plan) : NOTEPADS_DIRECTORY,
      ),
      access: "read",
    },
  ],
  async execute(input, context) {
    if (input.plan === undefined) {
      const directory = await context.paths.resolve(join(projectRootOf(context), NOTEPADS_DIRECTORY), "read");
      const notepads = await listNotepads(directory);
      if (notepads.length === 0) return "No notepads yet.";
      return `Notepads (newest first):\n${notepads.map((notepad) => `- ${notepad.plan}`).join("\n")}`;
    }
    if (!isValidPlanName(input.plan)) throw new ToolError(`Invalid plan name '${input.plan}'`);
    const file = await context.paths.resolve(
      join(projectRootOf(context), notepadRelativePath(input.plan)),
      "read",
    );
    const text = await readNotepad(file);
    if (text === undefined) return `No notepad found for plan '${input.plan}'`;
    return `=== Notepad: ${input.plan} ===\n${text.trimEnd()}`;
  },
});
