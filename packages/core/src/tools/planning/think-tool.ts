import { z } from "zod";
import { defineShippedTool } from "../seam/define-tool.js";

export const thinkTool = defineShippedTool({
  name: "think",
  description:
    "Think through a problem step by step before acting (plans, trade-offs, checking tool results). Changes nothing; the thought is echoed back.",
  inputSchema: z.lazy(() => z.object({ thought: z.string().min(1).describe("Your reasoning.") })),
  kind: "read",
  mutates: false,
  execute: async (input) => input.thought,
});
