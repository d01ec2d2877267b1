import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.doUnmock("gray-matter");
  vi.resetModules();
});

describe("parseFrontMatter", () => {
  it("reads YAML front matter and refuses executable front matter", async () => {
    const { parseFrontMatter } = await import("./parse-front-matter.js");
    expect(await parseFrontMatter("---\nname: a\n---\nbody\n")).toEqual({
      ok: true,
      data: { name: "a" },
      body: "body\n",
    });
    expect(await parseFrontMatter("---js\n{ name: 'a' }\n---\n")).toMatchObject({ ok: false });
  });

  it("reports a parser that cannot be loaded as a failed parse, and loads it again on the next call", async () => {
    vi.doMock("gray-matter", () => {
      throw new Error("cannot load gray-matter");
    });
    const { parseFrontMatter } = await import("./parse-front-matter.js");
    const failed = await parseFrontMatter("---\nname: a\n---\n");
    expect(failed.ok).toBe(false);
    expect(failed.ok ? "" : failed.reason).not.toBe("");
    vi.doUnmock("gray-matter");
    expect(await parseFrontMatter("---\nname: a\n---\n")).toMatchObject({ ok: true, data: { name: "a" } });
  });
});
