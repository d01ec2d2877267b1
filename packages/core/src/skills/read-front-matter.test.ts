import { describe, expect, it } from "vitest";
import { readFrontMatter } from "./read-front-matter.js";

describe("readFrontMatter", () => {
  it("parses YAML", async () => {
    expect(await readFrontMatter("---\nname: a\ntags: [x, y]\n---\nbody\n")).toEqual({
      ok: true,
      data: { name: "a", tags: ["x", "y"] },
      body: "body\n",
    });
  });

  it("accepts Claude Code's plain key: value lines that YAML rejects", async () => {
    expect(
      await readFrontMatter(
        "---\ndescription: Use when: the user asks\nargument-hint: [issue] [priority]\nmodel: 'x'\n---\n\nbody",
      ),
    ).toEqual({
      ok: true,
      data: { description: "Use when: the user asks", "argument-hint": "[issue] [priority]", model: "x" },
      body: "\nbody",
    });
  });

  it("keeps real errors", async () => {
    const result = await readFrontMatter("---\nname: [oops\n  - nested: {\n---\nbody\n");
    expect(result.ok).toBe(false);
  });
});
