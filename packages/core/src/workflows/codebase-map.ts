import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "@nyzhi/config";
import type { AgentStatus } from "../subagents/agent-status.js";

/** Where `/map` writes, from the project root. */
export const MAP_DIRECTORY = ".nyzhi/map";

/** The four documents of a codebase map, each written from one subagent's findings. */
export const MAP_DOCUMENTS = [
  {
    file: "STACK.md",
    title: "Stack",
    focus:
      "the technology stack: languages and their versions, frameworks, libraries that matter, build tools, package managers, test and lint tools, runtime and deployment targets. Cite the manifest files you read.",
  },
  {
    file: "ARCHITECTURE.md",
    title: "Architecture",
    focus:
      "the architecture: the top-level layout, the main modules or packages and what each is for, how they depend on each other, the entry points, and how data flows through a typical request or run. Name the files.",
  },
  {
    file: "CONVENTIONS.md",
    title: "Conventions",
    focus:
      "the conventions: naming, file and folder layout, error handling, logging, testing style, formatting and lint rules, commit and documentation habits. Give a short example path for each.",
  },
  {
    file: "CONCERNS.md",
    title: "Concerns",
    focus:
      "the concerns: fragile or overly complex areas, missing tests, TODO/FIXME hot spots, security risks, outdated dependencies, duplicated logic. Say where each is and why it matters.",
  },
] as const;

/** What the map needs of the session's agents: start a read-only subagent, and wait for its end. */
export interface MapAgents {
  spawn(request: { message: string; roleName: string }): Promise<{ agentId: string; nickname: string }>;
  finish(agentId: string, signal?: AbortSignal): Promise<AgentStatus>;
}

export interface MapResult {
  file: string;
  path: string;
  agent: string;
  /** Whether the subagent completed (a failed one's file says why). */
  ok: boolean;
}

function briefFor(focus: string): string {
  return [
    `Map this codebase: ${focus}`,
    "",
    "Explore with the read-only tools (ls, glob, grep, read); do not change files.",
    "Your final answer is the document itself, in Markdown with short sections and bullet points, under about 120 lines. Only state what you saw in the code.",
  ].join("\n");
}

/**
 * `/map`: four read-only subagents (role `explorer`) started together, one per document (stack,
 * architecture, conventions, concerns); each one's final answer is written to
 * `.nyzhi/map/<FILE>.md` as it ends. The subagents only read; the files are written here,
 * atomically, so a failed or stopped one leaves a note instead of a half file.
 */
export async function mapCodebase(
  agents: MapAgents,
  projectRoot: string,
  options: { signal?: AbortSignal; onStarted?: (file: string, nickname: string) => void } = {},
): Promise<MapResult[]> {
  const directory = join(projectRoot, MAP_DIRECTORY);
  await mkdir(directory, { recursive: true });
  const started = await Promise.all(
    MAP_DOCUMENTS.map(async (document) => {
      const spawned = await agents.spawn({ message: briefFor(document.focus), roleName: "explorer" });
      options.onStarted?.(document.file, spawned.nickname);
      return { document, spawned };
    }),
  );
  return Promise.all(
    started.map(async ({ document, spawned }): Promise<MapResult> => {
      const status = await agents.finish(spawned.agentId, options.signal);
      const path = join(directory, document.file);
      const ok = status.state === "completed" && (status.result ?? "").trim() !== "";
      const body = ok
        ? (status as { result: string }).result.trim()
        : `_The ${spawned.nickname} subagent did not finish this document (${status.state}${
            "message" in status ? `: ${status.message}` : ""
          }). Run /map again._`;
      await writeFileAtomic(path, `# ${document.title}\n\n${body}\n`);
      return { file: document.file, path, agent: spawned.nickname, ok };
    }),
  );
}
