import { z } from "zod";
import { projectMemoryDir } from "../../memory/memory-paths.js";
import { listMemoryTopics, readMemoryIndex, readMemoryTopic } from "../../memory/memory-store.js";
import { defineShippedTool } from "../seam/define-tool.js";
import { projectRootOf } from "../seam/tool-types.js";

const inputSchema = z.lazy(() =>
  z.object({
    topic: z
      .string()
      .min(1)
      .optional()
      .describe("A topic to read in full; omit for the index and the list of topics."),
  }),
);

export const memoryReadTool = defineShippedTool({
  name: "memory_read",
  description:
    "Read this project's persistent memory: without a topic, the index (MEMORY.md) and the available topics; with a topic, its notes.",
  inputSchema,
  kind: "read",
  mutates: false,
  async execute(input, context) {
    const dir = await projectMemoryDir(projectRootOf(context), context.dirs);
    if (input.topic !== undefined) return readMemoryTopic(dir, input.topic);
    const topics = await listMemoryTopics(dir);
    const index = (await readMemoryIndex(dir)).replace(/\s+$/, "");
    return `${index}\n\nAvailable topics: ${topics.length > 0 ? topics.join(", ") : "(none)"}`;
  },
});
