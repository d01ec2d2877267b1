import { z } from "zod";
import { findSecret } from "../../memory/find-secret.js";
import { projectMemoryDir } from "../../memory/memory-paths.js";
import { writeMemoryTopic } from "../../memory/memory-store.js";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import { projectRootOf } from "../seam/tool-types.js";

const inputSchema = z.lazy(() =>
  z.object({
    topic: z
      .string()
      .min(1)
      .describe(
        "Topic name, e.g. 'build-and-test' or 'architecture' (lower-cased; other characters become '-').",
      ),
    content: z.string().min(1).describe("The notes: short, one fact per line."),
    mode: z
      .enum(["append", "replace"])
      .default("append")
      .describe("append (default) adds to the topic; replace rewrites it."),
  }),
);

export const memoryWriteTool = defineShippedTool({
  name: "memory_write",
  description:
    "Save durable project knowledge (commands, architecture, conventions, pitfalls, user preferences) to persistent memory under a topic, for later sessions. Never for secrets.",
  inputSchema,
  kind: "memory",
  mutates: true,
  // No `paths`: it writes only a topic file of nyzhi's data dir (`dirs.memory`), nyzhi's own state,
  // which the sandbox levels do not cover (docs/security.md, "What a tool declares"). It still asks
  // in every trust mode but `full`; deny_tools `memory_write` keeps memory unchanged.
  preview: (input) => `${input.mode} memory topic '${input.topic}':\n${input.content}`,
  async execute(input, context) {
    const secret = findSecret(input.content);
    if (secret) {
      throw new ToolError(
        `memory_write refused: the content looks like it contains ${secret}. Memory is plain text shown in every later session, so it must never hold API keys, tokens, passwords or private keys. Write where the secret lives instead (e.g. "the key is in $API_KEY") and try again.`,
      );
    }
    const dir = await projectMemoryDir(projectRootOf(context), context.dirs);
    const written = await writeMemoryTopic(dir, input.topic, input.content, input.mode);
    const verb = written.created ? "Created" : input.mode === "replace" ? "Replaced" : "Appended to";
    return {
      output: `${verb} memory topic '${written.topic}' (${written.lines} ${written.lines === 1 ? "line" : "lines"}); the index lists it.`,
      metadata: { path: written.path, topic: written.topic, lines: written.lines },
    };
  },
});
