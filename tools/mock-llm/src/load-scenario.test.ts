import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadScenario, ScenarioError, startMockLlm, validateScenario } from "./index.js";

const scenariosDir = fileURLToPath(new URL("../scenarios", import.meta.url));

function tempFile(content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "mock-llm-")), "scenario.json");
  writeFileSync(file, content);
  return file;
}

describe("loadScenario", () => {
  it("loads the example scenarios", async () => {
    for (const name of ["hello.json", "tool-call.json", "faults.json"]) {
      const scenario = await loadScenario(join(scenariosDir, name));
      expect(scenario.rules.length).toBeGreaterThan(0);
    }
  });

  it("names the file and the JSON problem", async () => {
    const file = tempFile("{ rules: ");
    await expect(loadScenario(file)).rejects.toThrow(new RegExp(`^${file}: not valid JSON`));
  });

  it("names the file and the bad field", async () => {
    const file = tempFile(JSON.stringify({ rules: [{ match: { lastUser: 3 }, response: {} }] }));
    const error = await loadScenario(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).field).toBe("rules[0].match.lastUser");
    expect((error as Error).message).toBe(
      `${file}: rules[0].match.lastUser must be a string or { "regex": string, "flags"?: string }`,
    );
  });

  it("rejects unknown fields, so typos do not silently match everything", () => {
    expect(() => validateScenario({ rules: [{ match: { lastUsr: "x" }, response: {} }] })).toThrow(
      "scenario: rules[0].match.lastUsr is not a known field",
    );
    expect(() => validateScenario({ rules: [{ response: { fault: { type: "cut" } } }] })).toThrow(
      "rules[0].response.fault.afterChunks is required for a cut",
    );
    expect(() => validateScenario({ rules: [{ match: { system: { regex: "(" } }, response: {} }] })).toThrow(
      "rules[0].match.system has an invalid regex",
    );
  });

  it("starts a server from a scenario file", async () => {
    const mock = await startMockLlm({ scenarioFile: join(scenariosDir, "hello.json") });
    try {
      const response = await fetch(`${mock.url}/v1/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
      });
      const json = (await response.json()) as { choices: { message: { content: string } }[] };
      expect(json.choices[0]?.message.content).toBe("Hello from the mock LLM!");
      expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await mock.close();
    }
  });
});
