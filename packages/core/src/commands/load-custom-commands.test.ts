import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { defaultConfig } from "@nyzhi/config";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadCustomCommands } from "./load-custom-commands.js";

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-commands-")));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, text: string): Promise<string> {
  const absolute = join(root, path);
  await mkdir(dirname(absolute), { recursive: true });
  await writeFile(absolute, text);
  return absolute;
}

const noConfig = { agent: { commands: [] } };

describe("loadCustomCommands", () => {
  it("reads .nyzhi then .claude (nyzhi wins), front matter or '# desc' descriptions", async () => {
    const review = await put(".nyzhi/commands/review.md", "# Review a file\nReview $ARGUMENTS carefully.\n");
    await put(".claude/commands/review.md", "---\ndescription: Claude review\n---\nOther review\n");
    const fix = await put(
      ".claude/commands/fix-issue.md",
      "---\ndescription: Fix a GitHub issue\nargument-hint: [issue] [priority]\nallowed-tools: Bash(git:*)\n---\n\n# Fix\nFix issue #$1 with priority $2.\n",
    );
    const plain = await put(".nyzhi/commands/plain.md", "Just do it.\n");
    await put(".nyzhi/commands/notes.txt", "not a command");

    expect(await loadCustomCommands(root, noConfig)).toEqual({
      commands: [
        {
          name: "fix-issue",
          description: "Fix a GitHub issue",
          template: "# Fix\nFix issue #$1 with priority $2.",
          source: "claude",
          path: fix,
          argumentHint: "[issue] [priority]",
        },
        { name: "plain", description: "", template: "Just do it.", source: "nyzhi", path: plain },
        {
          name: "review",
          description: "Review a file",
          template: "Review $ARGUMENTS carefully.",
          source: "nyzhi",
          path: review,
        },
      ],
      warnings: [],
    });
  });

  it("lets [[agent.commands]] override files of the same name", async () => {
    await put(".nyzhi/commands/review.md", "# From file\nfile prompt\n");
    const config = defaultConfig();
    config.agent.commands = [
      { name: "review", prompt: "  Config review of $ARGUMENTS  ", description: "From config" },
      { name: "ship", prompt: "Ship it" },
    ];
    expect((await loadCustomCommands(root, config)).commands).toEqual([
      {
        name: "review",
        description: "From config",
        template: "Config review of $ARGUMENTS",
        source: "config",
      },
      { name: "ship", description: "", template: "Ship it", source: "config" },
    ]);
  });

  it("skips broken front matter, empty templates and bad names with warnings", async () => {
    const broken = await put(".claude/commands/broken.md", "---\ndescription: [oops\n  - x: {\n---\nbody\n");
    const empty = await put(".nyzhi/commands/empty.md", "# Only a description\n\n");
    const badName = await put(".nyzhi/commands/bad name.md", "body");
    const config = { agent: { commands: [{ name: "has space", prompt: "x" }] } };
    const result = await loadCustomCommands(root, config);
    expect(result.commands).toEqual([]);
    expect(result.warnings).toEqual([
      `warning: ${badName}: invalid command name 'bad name'; command skipped`,
      `warning: ${empty}: empty command template; command skipped`,
      expect.stringMatching(
        new RegExp(`^warning: ${broken}: invalid front matter \\(.+\\); command skipped$`),
      ),
      "warning: config agent.commands[0]: invalid command name 'has space'; command skipped",
    ]);
  });
});
