import { describe, expect, it } from "vitest";
import { nestUnderHeading } from "./nest-under-heading.js";

describe("nestUnderHeading", () => {
  it("drops the document's title and moves its headings below the section's", () => {
    const index =
      "\n# Project Memory\n\nAuto-managed memory index.\n\n## Topics\n- [build](build.md): pnpm build\n";
    expect(nestUnderHeading(index, 2)).toBe(
      "Auto-managed memory index.\n\n### Topics\n- [build](build.md): pnpm build\n",
    );
  });

  it("keeps the levels between headings and stops at six", () => {
    expect(nestUnderHeading("intro\n# One\n## Two\n##### Five\n###### Six", 2)).toBe(
      "intro\n### One\n#### Two\n###### Five\n###### Six",
    );
  });

  it("leaves text already below the section, non-headings and fenced code alone", () => {
    expect(nestUnderHeading("### Notes\n#hashtag\n```sh\n# a comment\n```\n- item", 2)).toBe(
      "### Notes\n#hashtag\n```sh\n# a comment\n```\n- item",
    );
    expect(nestUnderHeading("", 2)).toBe("");
  });
});
