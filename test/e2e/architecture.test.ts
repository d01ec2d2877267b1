import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/**
 * `get_architecture_knowledge` through the built `nyz`: the analysis parses with tree-sitter
 * (`web-tree-sitter`, external to the CommonJS bundle, and the grammars' wasm files), which a
 * session loads only when the tool runs.
 */

let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await tempProject("nyzhi-architecture-");
  home = await tempHome();
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "shop", dependencies: { express: "^4.19.0" } }),
    "src/server.ts": [
      'import express from "express";',
      'import users from "./users.js";',
      "const app = express();",
      'app.use("/api/users", users);',
      "// app.get('/commented-out', handler);",
      'app.get("/health", (req, res) => res.json({ ok: true }));',
      "",
    ].join("\n"),
    "src/users.ts": [
      'import { Router } from "express";',
      "const router = Router();",
      'router.get("/:id", (req, res) => res.end());',
      "export default router;",
      "",
    ].join("\n"),
    "worker.py": [
      "from flask import Flask",
      "app = Flask(__name__)",
      '@app.post("/jobs")',
      "def jobs(): ...",
      "",
    ].join("\n"),
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(workspace, path, ".."), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Runs `nyz exec --json` with a probe recording every module name looked up at run time. */
async function runWithProbe(toolCalls: { name: string; arguments: Record<string, unknown> }[]) {
  const probe = join(home, "probe.cjs");
  const loaded = join(home, "looked-up.json");
  await writeFile(
    probe,
    `const Module = require("node:module");
     const lookedUp = [];
     const resolve = Module._resolveFilename;
     Module._resolveFilename = function (request, ...rest) { lookedUp.push(request); return resolve.call(this, request, ...rest); };
     process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(lookedUp)));`,
  );
  mock = await startScenario({
    rules: [
      { match: { requestIndex: 1 }, response: { text: "Looking.", toolCalls } },
      { response: { text: "Done." } },
    ],
  });
  const result = await runNyz(["exec", "--json", "--full-auto", "what are the endpoints?"], {
    cwd: workspace,
    env: { ...anthropicEnv(mock, home), NODE_OPTIONS: `--require ${probe}` },
    timeoutMs: 30_000,
  });
  expect(result.code, result.stderr).toBe(0);
  const events = result.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; name?: string; output?: string });
  const lookedUp = JSON.parse(await readFile(loaded, "utf8")) as string[];
  return { events, lookedUp };
}

describe("get_architecture_knowledge in the built nyz", () => {
  it("parses the project with tree-sitter, loaded on the tool's first call", async () => {
    const { events, lookedUp } = await runWithProbe([
      { name: "get_architecture_knowledge", arguments: { section: "endpoints" } },
    ]);
    const done = events.find(
      (event) => event.type === "tool_done" && event.name === "get_architecture_knowledge",
    );
    expect(done?.output).toContain("GET /api/users/:id");
    expect(done?.output).toContain("GET /health");
    expect(done?.output).toContain("POST /jobs");
    expect(done?.output).not.toContain("/commented-out");
    expect(lookedUp).toContain("web-tree-sitter");
  });

  it("does not load the parser in a session that does not ask for the analysis", async () => {
    const { events, lookedUp } = await runWithProbe([
      { name: "read", arguments: { file_path: "src/server.ts" } },
    ]);
    expect(events.filter((event) => event.type === "tool_done").map((event) => event.name)).toEqual(["read"]);
    expect(lookedUp.filter((name) => name.includes("tree-sitter"))).toEqual([]);
  });
});
