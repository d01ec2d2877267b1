import { z } from "zod";
import { parsePatch, patchPaths } from "../../../engines/apply-patch/parse-patch.js";
import { defineShippedTool } from "../../seam/define-tool.js";
import { writeAllOrNothing } from "../write-all-or-nothing.js";
import { computePatch } from "./compute-patch.js";

const inputSchema = z.lazy(() =>
  z.object({
    patch: z.string().min(1).describe("The patch text, from '*** Begin Patch' to '*** End Patch'."),
  }),
);

const description = `Edit files with a patch. All files change or none do. Format:
*** Begin Patch
*** Add File: path/new.ts
+line of the new file
*** Delete File: path/old.ts
*** Update File: path/file.ts
*** Move to: path/renamed.ts   (optional)
@@ function or class line near the change (optional)
 context line (leading space)
-removed line
+added line
*** End of File   (optional: the change is at the end of the file)
*** End Patch
Give 3 lines of context around each change; paths are relative to the working directory.`;

export const applyPatchTool = defineShippedTool({
  name: "apply_patch",
  description,
  inputSchema,
  kind: "edit",
  mutates: true,
  paths(input) {
    try {
      return patchPaths(parsePatch(input.patch)).map((path) => ({ path, access: "write" as const }));
    } catch {
      // An unparsable patch touches nothing; execute reports the parse error.
      return [];
    }
  },
  async execute(input, context) {
    const plan = await computePatch(parsePatch(input.patch), context);
    await writeAllOrNothing(plan.writes, context, "apply_patch");
    return {
      output: `Success. Updated the following files:\n${plan.summary.join("\n")}`,
      metadata: { files: plan.writes.map((write) => write.path) },
    };
  },
});
