import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "smol-toml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addMcpServerTable, removeMcpServerTable } from "./mcp-server-table.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "nyzhi-mcp-table-"));
  file = join(dir, ".nyzhi", "config.toml");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("addMcpServerTable / removeMcpServerTable", () => {
  it("appends a stdio and an HTTP table keeping comments, then removes one leaving the rest", async () => {
    await addMcpServerTable(file, "seed", { command: "true" });
    await writeFile(file, `# my settings\n[agent]\nmax_steps = 7 # keep\n`);
    await addMcpServerTable(file, "lab", {
      command: "node",
      args: ["server.mjs", "--x"],
      env: { TOKEN: "t" },
    });
    await addMcpServerTable(file, "docs", {
      url: "https://docs.example/mcp",
      headers: { Authorization: "Bearer a" },
    });
    expect(await readFile(file, "utf8")).toBe(
      `# my settings\n[agent]\nmax_steps = 7 # keep\n\n[mcp.servers.lab]\ncommand = "node"\nargs = ["server.mjs", "--x"]\nenv = { TOKEN = "t" }\n\n[mcp.servers.docs]\nurl = "https://docs.example/mcp"\nheaders = { Authorization = "Bearer a" }\n`,
    );
    expect(await removeMcpServerTable(file, "lab")).toEqual({ file, preservedComments: true });
    expect(await readFile(file, "utf8")).toBe(
      `# my settings\n[agent]\nmax_steps = 7 # keep\n\n[mcp.servers.docs]\nurl = "https://docs.example/mcp"\nheaders = { Authorization = "Bearer a" }\n`,
    );
    expect(await removeMcpServerTable(file, "lab")).toBeUndefined();
  });

  it("refuses a duplicate name and an unparsable file, leaving the file as it was", async () => {
    await addMcpServerTable(file, "lab", { command: "node" });
    await expect(addMcpServerTable(file, "lab", { command: "other" })).rejects.toThrow(
      "MCP server 'lab' already exists",
    );
    const broken = "[agent\nmax_steps = = 3\n";
    await writeFile(file, broken);
    await expect(addMcpServerTable(file, "x", { command: "node" })).rejects.toThrow(/invalid TOML/);
    await expect(removeMcpServerTable(file, "x")).rejects.toThrow(/invalid TOML/);
    expect(await readFile(file, "utf8")).toBe(broken);
  });

  it("removes a server written with sub-tables or as dotted keys under [mcp.servers]", async () => {
    await mkdir(join(dir, ".nyzhi"));
    await writeFile(
      file,
      `[mcp.servers.a]\ncommand = "x"\n[mcp.servers.a.env]\nK = "v"\n\n[mcp.servers]\nb.url = "http://b"\n# end\n`,
    );
    await removeMcpServerTable(file, "a");
    expect(await readFile(file, "utf8")).toBe(`\n[mcp.servers]\nb.url = "http://b"\n# end\n`);
    expect(await removeMcpServerTable(file, "b")).toEqual({ file, preservedComments: true });
    expect(await readFile(file, "utf8")).toBe(`\n[mcp.servers]\n# end\n`);
  });

  it("keeps every server when several adds and removes of one file run at the same time", async () => {
    const names = Array.from({ length: 20 }, (_, index) => `s${index}`);
    for (const name of names.slice(0, 10)) await addMcpServerTable(file, name, { command: name });
    await Promise.all([
      ...names.slice(0, 10).map((name) => removeMcpServerTable(file, name)),
      ...names.slice(10).map((name) => addMcpServerTable(file, name, { command: name })),
    ]);
    const written = parse(await readFile(file, "utf8")) as { mcp: { servers: object } };
    expect(written.mcp.servers).toEqual(
      Object.fromEntries(names.slice(10).map((name) => [name, { command: name }])),
    );
    expect(await readdir(join(dir, ".nyzhi"))).toEqual(["config.toml"]);
  });
});
