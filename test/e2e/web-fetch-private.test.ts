import { mkdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

let mock: MockLlm | undefined;
let server: Server;
let target: string;
let hits: number;
let workspace: string;
let home: string;

beforeEach(async () => {
  hits = 0;
  server = createServer((_request, response) => {
    hits++;
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("internal admin page");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  workspace = await tempProject("nyzhi-web-fetch-");
  home = await tempHome();
  mock = await startScenario({
    rules: [
      { match: { lastIsToolResult: true }, response: { text: "fetched" } },
      { response: { toolCalls: [{ name: "web_fetch", arguments: { url: target } }] } },
    ],
  });
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await new Promise((resolve) => server.close(resolve));
  await rm(workspace, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

async function fetchThroughNyz(): Promise<string | undefined> {
  const result = await runNyz(["exec", "--json", "--full-auto", "read the admin page"], {
    cwd: workspace,
    env: anthropicEnv(mock!, home),
  });
  expect(result.code, result.stderr).toBe(0);
  const done = result.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; name?: string; output?: string })
    .find((event) => event.type === "tool_done" && event.name === "web_fetch");
  return done?.output;
}

describe("web_fetch through nyz exec", () => {
  it("refuses http://127.0.0.1:PORT/ and never connects", async () => {
    expect(await fetchThroughNyz()).toBe(
      `web_fetch refused ${target}: 127.0.0.1 is a loopback address. To allow it, add "${new URL(target).host}" ` +
        "to web.allow_hosts (or set web.allow_private = true) in config.toml.",
    );
    expect(hits).toBe(0);
  }, 30_000);

  it("fetches it once the user lists the host in web.allow_hosts", async () => {
    await mkdir(join(home, "config"), { recursive: true });
    await writeFile(
      join(home, "config", "config.toml"),
      `[web]\nallow_hosts = ["${new URL(target).host}"]\n`,
    );
    expect(await fetchThroughNyz()).toBe(`URL: ${target}\n\ninternal admin page`);
    expect(hits).toBe(1);
  }, 30_000);
});
