import { describe, expect, it } from "vitest";
import { findMentions } from "./find-mentions.js";

const paths = (text: string) => findMentions(text).map((mention) => mention.path);

describe("findMentions", () => {
  it("finds a mention at the start, in the middle and several, each path once", () => {
    expect(paths("@notes.txt")).toEqual(["notes.txt"]);
    expect(paths("explain @src/main.ts and @lib/ then @src/main.ts again")).toEqual(["src/main.ts", "lib/"]);
    expect(findMentions("see @a.md")[0]).toEqual({ path: "a.md", start: 4 });
  });

  it("skips an @ after a letter, a digit or a dot (email addresses), and keeps ~ paths", () => {
    expect(paths("mail me@example.com or x.@y about @~/todo.md")).toEqual(["~/todo.md"]);
    expect(paths("user1@host")).toEqual([]);
  });

  it("takes a trailing dot or comma as the sentence's punctuation", () => {
    expect(paths("read @notes.txt. Then @b.md, please")).toEqual(["notes.txt", "b.md"]);
  });
});
