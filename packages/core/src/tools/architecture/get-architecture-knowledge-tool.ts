import { z } from "zod";
import {
  ARCHITECTURE_CACHE_FILE,
  getArchitectureKnowledge,
} from "../../engines/architecture/architecture-cache.js";
import { ARCHITECTURE_SECTIONS, renderArchitecture } from "../../engines/architecture/render-architecture.js";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import { projectRootOf } from "../seam/tool-types.js";

/**
 * `get_architecture_knowledge(section)` (seed 003), the `architecture-expert`'s grounding: a
 * static analysis of the project (computed on first use, cached under `.nyzhi/cache/` until a
 * file changes) rendered as capped Markdown. It writes only its own cache, so it counts as a
 * read-only tool.
 */
export const getArchitectureKnowledgeTool = defineShippedTool({
  name: "get_architecture_knowledge",
  description:
    "Static analysis of this codebase's architecture. Sections: overview (project type, entry points, frameworks, file count), patterns (with confidence), call-graph (import graph stats, hub modules, circular dependencies), middleware (auth, middleware chain, error handlers), endpoints (method, path, file), models (with properties), all. Call it before answering questions about the architecture.",
  inputSchema: z.lazy(() =>
    z.object({
      section: z
        .enum(ARCHITECTURE_SECTIONS)
        .default("overview")
        .describe("Which part of the analysis to return."),
    }),
  ),
  kind: "read",
  mutates: false,
  async execute(input, context) {
    const knowledge = await getArchitectureKnowledge(projectRootOf(context));
    if (knowledge.state === "unavailable") {
      throw new ToolError(
        `No architecture analysis is available: ${knowledge.reason}. To produce one, run nyzhi from the project's root (the folder with package.json, tsconfig.json or pyproject.toml) so its TypeScript/JavaScript or Python sources are in the workspace, then call get_architecture_knowledge again; the analysis is computed on the first call and cached in ${ARCHITECTURE_CACHE_FILE}. Meanwhile use glob, grep and read.`,
      );
    }
    return {
      output: renderArchitecture(knowledge.analysis, input.section),
      metadata: { fromCache: knowledge.fromCache, fingerprint: knowledge.analysis.fingerprint },
    };
  },
});
