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

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
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
