import { parseSource } from "@nyzhi/index";
import { describe, expect, it } from "vitest";
import { analyzeJavaScriptFile } from "./analyze-javascript-file.js";
import type { FileFacts } from "./project-analysis.js";

/** The facts of one TypeScript file, parsed as `analyzeProject` parses it. */
async function factsOf(path: string, lines: string[]): Promise<FileFacts> {
  const facts = await parseSource({ path, content: `${lines.join("\n")}\n` }, (root) =>
    analyzeJavaScriptFile(path, root, "typescript"),
  );
  if (!facts) throw new Error(`no grammar for ${path}`);
  return facts;
}

const empty = { imports: [], importedNames: {}, endpoints: [], models: [], middleware: [], mounts: [] };

describe("analyzeJavaScriptFile", () => {
  it("reads an Express server whole: imports, mounts, middleware, error handler, route, shebang", async () => {
    const facts = await factsOf("src/server.ts", [
      "#!/usr/bin/env node",
      'import express, { type Request } from "express";',
      'import * as auth from "./auth.js";',
      'import users = require("./users");',
      'const { orders } = require("./orders");',
      'const admin = require("./admin").router;',
      'export * from "./types.js";',
      "const app = express();",
      "app.use(express.json());",
      'app.use("/users", users);',
      'app.use("/admin", requireLogin, admin);',
      'app.get("/health", (req: Request, res) => res.end());',
      "app.use((err: Error, req: Request, res, next) => res.status(500).end());",
      "export function onError(error, req, res, next) {}",
      'const lazy = () => import("./lazy.js");',
    ]);
    expect(facts).toEqual({
      file: "src/server.ts",
      language: "typescript",
      imports: ["express", "./auth.js", "./users", "./types.js", "./orders", "./admin", "./lazy.js"],
      importedNames: {
        express: "express",
        Request: "express",
        auth: "./auth.js",
        users: "./users",
        admin: "./admin",
      },
      endpoints: [{ method: "GET", path: "/health", file: "src/server.ts", line: 12 }],
      models: [],
      middleware: [
        { kind: "middleware", name: "express.json()", file: "src/server.ts", line: 9 },
        { kind: "auth", name: "requireLogin", file: "src/server.ts", line: 11 },
        { kind: "middleware", name: "admin", file: "src/server.ts", line: 11 },
        { kind: "error-handler", name: "(err, req, res, next) handler", file: "src/server.ts", line: 13 },
        { kind: "error-handler", name: "onError", file: "src/server.ts", line: 14 },
      ],
      // The second argument is taken for the mounted router (here an auth middleware: both count).
      mounts: [
        { prefix: "/users", identifier: "users", file: "src/server.ts" },
        { prefix: "/admin", identifier: "requireLogin", file: "src/server.ts" },
      ],
      isMain: true,
    });
  });

  it("does not count code inside comments, strings or template literals", async () => {
    const facts = await factsOf("src/help.ts", [
      "// app.get('/in-comment', h)",
      "/* import x from './in-comment.js'; */",
      "const usage = `app.get('/in-template', h); import y from './in-template.js';`;",
      "const note = \"router.post('/in-string', h); class Fake { id: string }\";",
      "app.get('/real', h);",
    ]);
    expect(facts).toMatchObject({
      ...empty,
      endpoints: [{ method: "GET", path: "/real", file: "src/help.ts", line: 5 }],
    });
  });

  it("reads a class's own fields, not an object type in its generics, and quoted interface keys", async () => {
    const facts = await factsOf("src/models.ts", [
      "export class Mapper implements EventMapper<{ t?: string; done?: boolean }> {",
      "  finished = false;",
      "  pending;",
      "  #secret = 1;",
      "  constructor(private readonly store: Store) {}",
      "  map(event: { t?: string }): void {}",
      "  get size(): number { return 0; }",
      "}",
      "export interface Events {",
      '  "turn-start": { id: string };',
      "  retry: number;",
      "  handle(): void;",
      "}",
      "@Entity()",
      "export class Customer {",
      "  @Column() name!: string;",
      "}",
      "export type Point = { x: number; y: number };",
      "export type Shape = { kind: 'circle' } | { kind: 'square' };",
    ]);
    expect(facts.models).toEqual([
      {
        name: "Mapper",
        kind: "class",
        file: "src/models.ts",
        line: 1,
        properties: ["finished", "pending", "secret"],
      },
      {
        name: "Events",
        kind: "interface",
        file: "src/models.ts",
        line: 9,
        properties: ["turn-start", "retry"],
      },
      { name: "Customer", kind: "entity", file: "src/models.ts", line: 15, properties: ["name"] },
      { name: "Point", kind: "type", file: "src/models.ts", line: 18, properties: ["x", "y"] },
    ]);
  });

  it("follows route chains with inline handlers, and NestJS controllers with guards", async () => {
    const facts = await factsOf("src/books.controller.ts", [
      'router.route("/books")',
      "  .get((req, res) => res.json(list(req.query)))",
      "  .post(async (req, res) => { await save(req.body); res.end(); });",
      '@Controller("users")',
      "export class UsersController {",
      '  @UseGuards(AuthGuard("jwt"))',
      '  @Get(":id")',
      "  find() {}",
      "  @Post()",
      "  create() {}",
      "}",
    ]);
    expect(facts.endpoints).toEqual([
      { method: "GET", path: "/books", file: "src/books.controller.ts", line: 1 },
      { method: "POST", path: "/books", file: "src/books.controller.ts", line: 1 },
      { method: "GET", path: "/users/:id", file: "src/books.controller.ts", line: 7 },
      { method: "POST", path: "/users", file: "src/books.controller.ts", line: 9 },
    ]);
    expect(facts.middleware).toEqual([
      { kind: "auth", name: '@UseGuards(AuthGuard("jwt"))', file: "src/books.controller.ts", line: 6 },
    ]);
  });

  it("finds Next.js route handlers and pages/api default exports", async () => {
    const route = await factsOf("app/users/[id]/route.ts", [
      "export async function GET() {}",
      "export const DELETE = async () => {};",
      "export function helper() {}",
    ]);
    expect(route.endpoints).toEqual([
      { method: "GET", path: "/users/:id", file: "app/users/[id]/route.ts", line: 1 },
      { method: "DELETE", path: "/users/:id", file: "app/users/[id]/route.ts", line: 2 },
    ]);
    const page = await factsOf("pages/api/items/[slug].ts", [
      "// handler",
      "export default function handler() {}",
    ]);
    expect(page.endpoints).toEqual([
      { method: "ALL", path: "/api/items/:slug", file: "pages/api/items/[slug].ts", line: 2 },
    ]);
  });
});
