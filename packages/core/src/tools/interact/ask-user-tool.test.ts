import { afterEach, describe, expect, it, vi } from "vitest";
import type { ToolServices } from "../seam/tool-types.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { askUserTool, DISMISSED_MESSAGE, NO_USER_MESSAGE } from "./ask-user-tool.js";

let test: TestContext | undefined;
afterEach(async () => {
  await test?.cleanup();
});

async function contextAnswering(answer: string) {
  const askUser = vi.fn<NonNullable<ToolServices["askUser"]>>(async () => answer);
  test = await createTestContext({ services: { askUser } });
  return { askUser, context: test.context };
}

const options = [
  { value: "postgres", label: "PostgreSQL (recommended)" },
  { value: "sqlite", label: "SQLite" },
];

describe("ask_user", () => {
  it("passes the labels to the host and returns the picked option's value", async () => {
    const { askUser, context } = await contextAnswering("PostgreSQL (recommended)");
    const result = await runTool(askUserTool, { question: "Which database?", options }, context);
    expect(askUser).toHaveBeenCalledWith("Which database?", {
      choices: ["PostgreSQL (recommended)", "SQLite"],
    });
    expect(result).toEqual({ output: "User selected: postgres", metadata: { value: "postgres" } });
  });

  it("returns a typed answer as is, and asks without choices when there are no options", async () => {
    const { askUser, context } = await contextAnswering("  use the existing MySQL  ");
    expect(await runTool(askUserTool, { question: "Which database?", options }, context)).toEqual({
      output: "User answered: use the existing MySQL",
    });
    expect(await runTool(askUserTool, { question: "Anything else?" }, context)).toEqual({
      output: "User answered: use the existing MySQL",
    });
    expect(askUser).toHaveBeenLastCalledWith("Anything else?", undefined);
  });

  it("flags an off-list answer when custom answers were not allowed", async () => {
    const { context } = await contextAnswering("mongo");
    const result = await runTool(askUserTool, { question: "Which?", options, allow_custom: false }, context);
    expect(result.output).toMatch(/^User answered: mongo\n\(Not one of the offered options/);
  });

  it("tells the model to go on when dismissed or when nobody can answer", async () => {
    const { context } = await contextAnswering("");
    expect(await runTool(askUserTool, { question: "Which?" }, context)).toEqual({
      output: DISMISSED_MESSAGE,
    });
    await test?.cleanup();
    test = await createTestContext();
    expect(await runTool(askUserTool, { question: "Which?" }, test.context)).toEqual({
      output: NO_USER_MESSAGE,
      isError: true,
    });
  });

  it("needs 2 to 6 options when options are given", async () => {
    const { context } = await contextAnswering("x");
    const one = await runTool(askUserTool, { question: "Which?", options: [options[0]] }, context);
    expect(one.isError).toBe(true);
    expect(one.output).toMatch(/^Invalid arguments for ask_user:\n- options: /);
  });
});
