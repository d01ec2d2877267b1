import { cp, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { analyzeProject } from "./analyze-project.js";
import { clearArchitectureMemory, getArchitectureKnowledge } from "./architecture-cache.js";
import { ARCHITECTURE_LIMITS, renderArchitecture } from "./render-architecture.js";

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

async function copyFixture(name: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), `nyzhi-arch-${name}-`));
  await cp(fixture(name), root, { recursive: true });
  return root;
}

beforeEach(() => clearArchitectureMemory());

describe("analyzeProject on an Express-style TypeScript project", () => {
  it("finds the routes with their mount prefixes, the models, the middleware and the import cycle", async () => {
    const analysis = (await analyzeProject(await copyFixture("express-app")))!;
    expect(analysis.endpoints.map(({ method, path, file }) => `${method} ${path} ${file}`)).toEqual([
      "GET /api/orders src/routes/orders.ts",
      "DELETE /api/orders/:id src/routes/orders.ts",
      "GET /api/users src/routes/users.ts",
      "GET /api/users/:id src/routes/users.ts",
      "POST /api/users src/routes/users.ts",
      "GET /health src/server.ts",
    ]);
    expect(analysis.endpoints.find((endpoint) => endpoint.path === "/health")?.line).toBe(14);
    expect(analysis.callGraph.cycles).toEqual([
      ["src/repositories/user-repository.ts", "src/services/user-service.ts"],
    ]);
    const models = Object.fromEntries(analysis.models.map((model) => [model.name, model.properties]));
    expect(models.User).toEqual(["id", "name", "email", "createdAt"]);
    expect(models.Order).toEqual(["id", "customer", "total", "lines"]);
    expect(analysis.middleware.map(({ kind, name }) => `${kind}:${name}`)).toEqual([
      "middleware:cors()",
      "middleware:express.json()",
      "auth:authenticate",
      "error-handler:(err, req, res, next) handler",
    ]);
    expect(analysis.overview).toMatchObject({
      projectType: "TypeScript web API / service (Express)",
      frameworks: ["Express", "Vitest", "Zod"],
      entryPoints: ["dist/server.js", "src/server.ts"],
      languages: { typescript: 8 },
      sourceFileCount: 8,
      fileCount: 9,
    });
    expect(analysis.callGraph.hubs[0]).toEqual({ file: "src/models/user.ts", importedBy: 3, imports: 0 });
    expect(analysis.callGraph.externalPackages.map((entry) => entry.name)).toEqual(["express", "cors"]);
    expect(analysis.patterns.map((pattern) => pattern.name)).toEqual(
      expect.arrayContaining([
        "Layered architecture",
        "REST API",
        "Middleware pipeline",
        "Repository pattern",
      ]),
    );
  });
});

describe("analyzeProject on a Flask project", () => {
  it("finds blueprint routes with methods and prefix, pydantic/ORM/dataclass models, hooks and both cycles", async () => {
    const analysis = (await analyzeProject(await copyFixture("flask-app")))!;
    expect(
      analysis.endpoints.map(({ method, path, file, line }) => `${method} ${path} ${file}:${line}`),
    ).toEqual([
      "GET /health app.py:16",
      "GET /products/<int:product_id> shop/routes.py:17",
      "GET /products/ shop/routes.py:10",
      "POST /products/ shop/routes.py:10",
    ]);
    expect(analysis.models.map(({ name, kind, properties }) => ({ name, kind, properties }))).toEqual([
      { name: "Product", kind: "pydantic", properties: ["id", "name", "price"] },
      { name: "CartLine", kind: "dataclass", properties: ["product_id", "quantity"] },
      { name: "Customer", kind: "orm", properties: ["id", "email"] },
      { name: "Base", kind: "orm", properties: [] },
    ]);
    expect(analysis.callGraph.cycles).toEqual([
      ["app.py", "shop/errors.py"],
      ["shop/routes.py", "shop/services.py"],
    ]);
    expect(analysis.middleware.map(({ kind, name }) => `${kind}:${name}`)).toEqual([
      "middleware:require_api_key",
      "error-handler:not_found",
    ]);
    expect(analysis.overview).toMatchObject({
      projectType: "Python web API / service (Flask)",
      frameworks: ["Flask", "Pydantic", "SQLAlchemy"],
      entryPoints: ["app.py"],
    });
  });
});

describe("getArchitectureKnowledge", () => {
  it("caches the analysis on disk under the file fingerprint and recomputes when a file changes", async () => {
    const root = await copyFixture("express-app");
    const first = await getArchitectureKnowledge(root);
    expect(first).toMatchObject({ state: "ready", fromCache: false });
    expect((await getArchitectureKnowledge(root)) as unknown).toMatchObject({ fromCache: "memory" });
    clearArchitectureMemory();
    expect(await getArchitectureKnowledge(root)).toMatchObject({ state: "ready", fromCache: "disk" });
    await writeFile(
      join(root, "src/routes/users.ts"),
      'import { Router } from "express";\nconst router = Router();\nrouter.put("/:id", () => {});\nexport default router;\n',
    );
    const changed = await getArchitectureKnowledge(root);
    expect(changed).toMatchObject({ state: "ready", fromCache: false });
    if (changed.state !== "ready") return;
    expect(changed.analysis.endpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`)).toContain(
      "PUT /api/users/:id",
    );
    expect(changed.analysis.callGraph.cycles).toEqual([
      ["src/repositories/user-repository.ts", "src/services/user-service.ts"],
    ]);
  });

  it("says why there is no analysis when the project has no supported sources", async () => {
    const root = await mkdtemp(join(tmpdir(), "nyzhi-arch-empty-"));
    await writeFile(join(root, "README.md"), "# nothing\n");
    expect(await getArchitectureKnowledge(root)).toEqual({
      state: "unavailable",
      reason: `no TypeScript/JavaScript or Python source files were found under ${root} (1 files scanned; dependencies, build output and VCS folders are skipped)`,
    });
  });
});

describe("renderArchitecture caps", () => {
  it("shows at most 5 patterns, 8 hubs, 15 endpoints and 10 models, and all within 12,000 characters", async () => {
    const root = await mkdtemp(join(tmpdir(), "nyzhi-arch-big-"));
    const files: Record<string, string> = {
      "package.json": JSON.stringify({ dependencies: { express: "4" }, workspaces: ["packages/*"] }),
      "src/repositories/a-repository.ts": "export const x = 1;\n",
      "src/services/s.ts":
        "import { EventEmitter } from 'node:events';\nexport const bus = new EventEmitter();\nbus.emit('x');\n",
      "src/controllers/c.ts": "import { bus } from '../services/s.js';\nbus.emit('y');\n",
      "src/c.test.ts": "export {};\n",
    };
    for (let index = 0; index < 12; index++) {
      const imports = Array.from({ length: index }, (_, other) => `import "./hub-${other}.js";`).join("\n");
      files[`src/hub-${index}.ts`] =
        `${imports}\nexport interface Model${index} { id: string; field${index}: number; }\n`;
    }
    const routes = Array.from(
      { length: 30 },
      (_, index) => `app.get("/r/${index}", (req, res) => res.end());`,
    );
    files["src/app.ts"] =
      `import express from "express";\nconst app = express();\napp.use(a);\napp.use(b);\n${routes.join("\n")}\n`;
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const analysis = (await analyzeProject(root))!;
    expect(analysis.endpoints).toHaveLength(30);
    expect(analysis.models.length).toBeGreaterThan(10);
    expect(analysis.patterns.length).toBeGreaterThan(5);
    expect(analysis.callGraph.hubs.length).toBeGreaterThan(8);
    const count = (text: string, heading: string) =>
      text
        .split(heading)[1]!
        .split("\n##")[0]!
        .split("\n")
        .filter((line) => line.startsWith("- ") && !line.startsWith("- …")).length;
    const all = renderArchitecture(analysis, "all");
    expect(all.length).toBeLessThanOrEqual(ARCHITECTURE_LIMITS.maxChars);
    expect(count(renderArchitecture(analysis, "patterns"), "## Patterns")).toBe(5);
    expect(count(renderArchitecture(analysis, "call-graph"), "### Hub modules")).toBe(8);
    expect(count(renderArchitecture(analysis, "endpoints"), "## Endpoints")).toBe(15);
    expect(renderArchitecture(analysis, "endpoints")).toContain("- … and 15 more endpoints");
    expect(count(renderArchitecture(analysis, "models"), "## Models")).toBe(10);
    expect(all).toContain("## Overview");
    expect(all).toContain("## Models");

    const huge = {
      ...analysis,
      models: Array.from({ length: 10 }, (_, index) => ({
        ...analysis.models[0]!,
        name: `M${index}`,
        properties: Array.from({ length: 400 }, (_, p) => `property_${p}`),
      })),
    };
    const capped = renderArchitecture(huge, "all");
    expect(capped.length).toBe(ARCHITECTURE_LIMITS.maxChars);
    expect(capped).toMatch(/truncated at 12,000 characters/);
  });
});
