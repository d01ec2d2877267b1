import { access, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "@nyzhi/config";
import type { ModelMessage } from "@nyzhi/provider";
import { messageText } from "./handoff.js";
import { WorkflowError } from "./workflow-error.js";

/** Where `/learn <name>` saves a skill, from the project root (where `loadSkills` reads them). */
export const LEARNED_SKILLS_DIRECTORY = ".nyzhi/skills";
const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The tools the session's assistant called, in first-use order. */
function toolsUsed(messages: readonly ModelMessage[]): string[] {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const part of message.content) if (part.type === "tool-call") names.add(part.name);
  }
  return [...names];
}

/**
 * `/learn <name>`: saves a skill from this session as `.nyzhi/skills/<name>.md` — a description,
 * the requests that made up the work and the tools that did it — for the person to edit; it is
 * offered to the model (and as `/<name>`) from the next session on. Refuses to overwrite a skill.
 */
export async function saveLearnedSkill(
  projectRoot: string,
  name: string,
  messages: readonly ModelMessage[],
): Promise<string> {
  if (!SKILL_NAME.test(name))
    throw new WorkflowError(
      "usage",
      `"${name}" is not a skill name: use lower-case letters, digits and dashes (e.g. /learn release-notes).`,
    );
  const directory = join(projectRoot, LEARNED_SKILLS_DIRECTORY);
  const path = join(directory, `${name}.md`);
  if (
    await access(path).then(
      () => true,
      () => false,
    )
  )
    throw new WorkflowError("usage", `${path} exists already: edit it, or pick another name.`);
  const requests = messages
    .filter((message) => message.role === "user")
    .map((message) => messageText(message).trim())
    .filter((text) => text !== "" && !text.startsWith("["))
    .slice(-8);
  const tools = toolsUsed(messages);
  const first = requests[0]?.split("\n", 1)[0]?.slice(0, 120) ?? name;
  const body = [
    "---",
    `description: ${JSON.stringify(`How this project did: ${first}`)}`,
    "---",
    `# ${name}`,
    "",
    "Learned from a session; edit it to say when to use it and what to watch for.",
    "",
    "## The requests",
    ...(requests.length > 0
      ? requests.map((text) => `- ${text.replace(/\s+/g, " ").slice(0, 300)}`)
      : ["- (none)"]),
    "",
    "## Tools that did the work",
    ...(tools.length > 0 ? tools.map((tool) => `- ${tool}`) : ["- (none)"]),
    "",
  ].join("\n");
  await mkdir(directory, { recursive: true });
  await writeFileAtomic(path, body);
  return path;
}
