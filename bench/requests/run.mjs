// First-request size benchmark: the characters of the first request body (system prompt, tool
// schemas and the user's message, as JSON on the wire) that the built `nyz exec` sends for the lead
// and for a child of each built-in role, with the default configuration, without and with MCP
// servers (a stdio server with 20 tools and one with 5, so one group is deferred and one is not).
// Deterministic: no timing. Target (issue 32): the lead's ≤ 24,000 characters with the default tools.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const nyz = join(root, "packages/cli/dist/nyz.cjs");
const LAB = join(root, "packages/core/src/mcp/__fixtures__/stdio-server.mjs");
const LEAD = "You are Nizzy";
const NOT_LEAD = { regex: "^(?!You are Nizzy)" };
const PROMPT = "check the parts";

function runNyz(args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nyz, ...args], { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`nyz exited ${code}: ${output}`)),
    );
  });
}

/** Runs one `nyz exec` whose lead asks for one `task` child per name in `roles`; returns the requests. */
async function session(roles, { mcp }) {
  const { startMockLlm } = await import(join(root, "tools/mock-llm/dist/index.js"));
  const workspace = await mkdtemp(join(tmpdir(), "nyzhi-bench-requests-"));
  await mkdir(join(workspace, ".git"));
  const home = join(workspace, ".home");
  await mkdir(join(home, "config"), { recursive: true });
  const servers = mcp
    ? `[mcp.servers.lab]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(LAB)}, "--name=lab", "--tools=${mcp}"]`
    : "";
  await writeFile(
    join(home, "config", "config.toml"),
    `[agent.agents]\nmax_threads = ${Math.max(4, roles.length)}\nmax_tasks = ${Math.max(8, roles.length)}\n\n${servers}\n`,
  );
  const mock = await startMockLlm({
    scenario: {
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: {
            toolCalls: roles.map((role) => ({
              name: "task",
              arguments: { subagent_type: role, description: `look at the ${role} part` },
            })),
          },
        },
        { match: { system: NOT_LEAD }, response: { text: "fine" } },
        { match: { system: LEAD }, response: { text: "all fine" } },
      ],
    },
  });
  try {
    await runNyz(["exec", "--json", "--full-auto", PROMPT], {
      cwd: workspace,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: workspace,
        NYZHI_HOME: home,
        NYZHI_PROVIDER: "anthropic",
        ANTHROPIC_API_KEY: "bench",
        ANTHROPIC_BASE_URL: `${mock.url}/v1`,
        NYZHI_CREDENTIAL_STORE: "file",
        NYZHI_LOG: "silent",
      },
    });
    return mock.requests.filter((request) => request.api === "anthropic");
  } finally {
    await mock.close();
    await rm(workspace, { recursive: true, force: true });
  }
}

const size = (request) => JSON.stringify(request.body).length;

/** Which built-in role a child's first request is for: its task names the role. */
function roleOf(request, roles) {
  const text = request.messages.map((message) => message.text ?? "").join("\n");
  return roles.find((role) => text.includes(`look at the ${role} part`));
}

async function figures(roles, options) {
  const requests = await session(roles, options);
  const lead = requests.find((request) => request.system?.startsWith(LEAD));
  const children = new Map();
  for (const request of requests) {
    if (request.system?.startsWith(LEAD)) continue;
    const first = request.messages.length === 1;
    const role = roleOf(request, roles);
    if (first && role && !children.has(role)) children.set(role, request);
  }
  return {
    lead: { chars: size(lead), tools: lead.toolsOffered.length },
    children: new Map(
      [...children].map(([role, request]) => [
        role,
        { chars: size(request), tools: request.toolsOffered.length },
      ]),
    ),
  };
}

export async function run() {
  const { BUILT_IN_ROLES } = await import(join(root, "packages/core/dist/index.js"));
  const roles = BUILT_IN_ROLES.filter((role) => role.enabled && role.name !== "default").map(
    (role) => role.name,
  );
  const without = await figures(roles, { mcp: 0 });
  const fewMcp = await figures(roles, { mcp: 8 });
  const manyMcp = await figures(roles, { mcp: 25 });
  const cell = (figure) => (figure ? `${figure.chars.toLocaleString("en")} (${figure.tools})` : "—");
  const rows = [
    `| lead | ${cell(without.lead)} | ${cell(fewMcp.lead)} | ${cell(manyMcp.lead)} |`,
    ...roles.map(
      (role) =>
        `| ${role} child | ${[without, fewMcp, manyMcp].map((figure) => cell(figure.children.get(role))).join(" | ")} |`,
    ),
  ];
  const markdown = [
    "Characters of the first request body (JSON as sent: system prompt, tool schemas, the message) of `nyz exec --json --full-auto` with the default configuration, for the lead and for a `task` child of each built-in role, the number of tools offered in full in brackets. With MCP: one stdio server of 8 tools (offered in full) or of 25 tools (more than 15: deferred behind `tool_search`). Deterministic (no timing).",
    "",
    "| agent | no MCP server | an MCP server of 8 tools | an MCP server of 25 tools |",
    "| --- | ---: | ---: | ---: |",
    ...rows,
    "",
    `Target: the lead's first request ≤ 24,000 characters with the default tools (${without.lead.chars <= 24_000 ? "met" : "not met"}).`,
  ].join("\n");
  return { title: "First request size (`bench/requests`)", markdown, ok: without.lead.chars <= 24_000 };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await run()).markdown);
