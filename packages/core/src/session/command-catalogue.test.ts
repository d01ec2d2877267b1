import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@nyzhi/config";
import { describe, expect, it } from "vitest";
import { expandSlashCommand, loadCommandCatalogue, skillPrompt } from "./command-catalogue.js";

async function project() {
  const root = await mkdtemp(join(tmpdir(), "nyzhi-catalogue-"));
  const home = await mkdtemp(join(tmpdir(), "nyzhi-catalogue-home-"));
  await mkdir(join(root, ".nyzhi", "commands"), { recursive: true });
  await mkdir(join(root, ".nyzhi", "skills"), { recursive: true });
  await writeFile(
    join(root, ".nyzhi", "commands", "review.md"),
    "---\ndescription: Review\n---\nReview $ARGUMENTS.\n",
  );
  await writeFile(
    join(root, ".nyzhi", "skills", "review.md"),
    "---\ndescription: A skill named like it\n---\nx\n",
  );
  await writeFile(
    join(root, ".nyzhi", "skills", "deploy.md"),
    "---\ndescription: Ship it\n---\nRun the script.\n",
  );
  const env = { NYZHI_HOME: home };
  const loaded = await loadConfig({ cwd: root, env });
  return { root: loaded.projectRoot, config: loaded.config, env, mcp: undefined, warn: () => {} };
}

describe("the command catalogue", () => {
  it("lists custom commands and skills once each, a custom command winning a clash of names", async () => {
    const options = await project();
    const catalogue = await loadCommandCatalogue(options);
    expect(catalogue.map((command) => [command.name, command.source])).toEqual([
      ["review", "custom"],
      ["deploy", "skill"],
    ]);
  });

  it("expands a skill's slash command into the prompt that loads and follows it", async () => {
    const options = await project();
    expect(await expandSlashCommand("/deploy to staging", options)).toBe(skillPrompt("deploy", "to staging"));
    expect(await expandSlashCommand("/review a.ts", options)).toBe("Review a.ts.");
    expect(await expandSlashCommand("plain text", options)).toBe("plain text");
    await expect(expandSlashCommand("/nope", options)).rejects.toThrow(
      "Unknown command /nope. Commands here: /review, /deploy",
    );
  });
});
