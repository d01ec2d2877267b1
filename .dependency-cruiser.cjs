// Dependency rules for the nyzhi workspace, checked by `pnpm lint` (depcruise).
//
// The package list is the architecture: config → auth → provider → core → tui → cli,
// with index (semantic search) beside auth using only config, and core using index.
// A package may import only the packages below it, so each layer can be built, tested and
// published on its own, and a contributor can change one package without reading the ones above.
/** Which workspace packages each package may import (by folder under packages/). */
const allowed = {
  config: [],
  auth: ["config"],
  index: ["config"],
  provider: ["config", "auth"],
  core: ["config", "auth", "provider", "index"],
  tui: ["config", "auth", "provider", "index", "core"],
  cli: ["config", "auth", "provider", "index", "core", "tui"],
};
const all = Object.keys(allowed);

const layerRules = Object.entries(allowed).map(([from, may]) => {
  const forbidden = all.filter((name) => name !== from && !may.includes(name));
  return {
    name: `layer-${from}`,
    comment: `packages/${from} may import only ${may.join(", ") || "nothing of ours"}: imports must point down the layer arrow, never up or sideways.`,
    severity: "error",
    from: { path: `(^|/)packages/${from}/` },
    to: { path: `(^|/)packages/(${forbidden.join("|")})/` },
  };
});

// Inside core: a floor plan. Each floor lists folders of packages/core/src (a folder's subfolders
// are part of it); a folder may import only folders on floors below its own, never one beside or
// above it, so no two folders of core depend on each other and a newcomer can read core bottom-up.
// Tests (`*.test.ts`) may assemble pieces from any floor. The public API (src/index.ts) sits above all.
// A new folder must be placed on a floor (core-floors.test.ts checks that every folder is).
const coreFloors = [
  {
    folders: [
      "engines/glob",
      "engines/file-walk",
      "engines/apply-patch",
      "engines/web",
      "engines/architecture",
    ],
    why: "engines that know nothing of agents, tools or each other: usable and testable alone",
  },
  {
    folders: ["engines/grep", "engines/sandbox"],
    why: "engines built on the ones below (grep walks files and matches globs; the sandbox matches path globs)",
  },
  {
    folders: ["budgets", "usage", "worktrees"],
    why: "agent-agnostic pieces the vocabulary speaks of: budget limits and their ledger, the usage ledger (a session's one sum of tokens and cost), git worktrees and their records",
  },
  {
    folders: ["events", "tools/seam", "doctor"],
    why: "the vocabulary of a turn (what an agent emits, how a tool is defined, run and registered) and `nyz doctor`'s probes of the machine",
  },
  {
    folders: ["compaction", "changes", "roles", "planning", "mentions"],
    why: "services that need only the vocabulary: history compaction, file changes, role definitions, todos and notepad, `@path` mentions and images of a message",
  },
  { folders: ["agent-loop"], why: "one agent's turn loop, on top of the vocabulary and compaction" },
  {
    folders: ["autopilot", "briefing", "code-index", "hooks", "saved-sessions", "skills"],
    why: "services that plug into the loop (autopilot phases run as turns, system prompt fragments, tool hooks, the session journal)",
  },
  {
    folders: ["memory", "commands", "permissions", "subagents", "teams"],
    why: "services built on those (memory on briefing, commands on skills, permissions and teams on hooks, subagents on saved sessions)",
  },
  { folders: ["mcp"], why: "MCP servers: their tools, resources and prompts (prompts are commands)" },
  {
    folders: [
      "tools/files",
      "tools/git",
      "tools/interact",
      "tools/memory",
      "tools/planning",
      "tools/shell",
      "tools/skills",
      "tools/teams",
      "tools/agents",
      "tools/architecture",
      "tools/deferred",
      "tools/web",
      "tools/testing",
    ],
    why: "the concrete tools, one folder per domain, each a thin wrapper over an engine or a service",
  },
  { folders: ["tools/search"], why: "search tools, which share the file tools' path helpers" },
  { folders: ["tools/catalogue"], why: "the one list of the tools nyzhi ships" },
  { folders: ["runtime"], why: "assembles an agent (and its children) from everything below" },
  {
    folders: ["workflows"],
    why: "the app's and exec's command workflows (handoff notes, the codebase map, learned skills, prompt workflows) over the services below",
  },
  { folders: ["session"], why: "the session a host opens: the only floor the hosts talk to" },
];
const escapeFolder = (folder) => folder.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const coreFloorRules = coreFloors.flatMap((floor, level) => {
  const notBelow = coreFloors.slice(level).flatMap((other) => other.folders);
  return floor.folders.map((folder) => {
    const forbidden = notBelow.filter((other) => other !== folder);
    return {
      name: `core-floor-${folder.replace("/", "-")}`,
      comment: `packages/core/src/${folder} is on floor ${level} (${floor.why}); it may import only folders on lower floors.`,
      severity: "error",
      from: { path: `(^|/)packages/core/src/${escapeFolder(folder)}/`, pathNot: "\\.test\\.tsx?$" },
      to: { path: `(^|/)packages/core/src/(${forbidden.map(escapeFolder).join("|")})/` },
    };
  });
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    ...coreFloorRules,
    {
      name: "no-circular",
      comment: "A cycle makes modules impossible to load, test or reason about one at a time.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      comment: "An import that does not resolve fails at run time; declare the package or fix the path.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: "no-undeclared-dependencies",
      comment:
        "Every package a module imports must be declared in its own package.json, or a clean install breaks.",
      severity: "error",
      from: { pathNot: "\\.test\\.ts$" },
      to: { dependencyTypes: ["npm-no-pkg", "npm-unknown", "undetermined"] },
    },
    {
      name: "no-dev-dependencies-in-src",
      comment: "Shipped code cannot import devDependencies: they are not installed for users.",
      severity: "error",
      from: { path: "(^|/)packages/[^/]+/src/", pathNot: "\\.test\\.ts$" },
      to: { dependencyTypes: ["npm-dev"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|node_modules|__fixtures__)/" },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "types", "node", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
  },
};

// For test/lint/core-floors.test.ts (not part of depcruise's configuration, hence not enumerable).
Object.defineProperty(module.exports, "coreFloors", { value: coreFloors, enumerable: false });
