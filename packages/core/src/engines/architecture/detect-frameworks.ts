/** Package (npm or PyPI) → framework name shown in the overview. */
const FRAMEWORKS: Readonly<Record<string, string>> = {
  express: "Express",
  fastify: "Fastify",
  koa: "Koa",
  hono: "Hono",
  "@nestjs/core": "NestJS",
  next: "Next.js",
  react: "React",
  vue: "Vue",
  svelte: "Svelte",
  "@angular/core": "Angular",
  electron: "Electron",
  "@prisma/client": "Prisma",
  prisma: "Prisma",
  typeorm: "TypeORM",
  mongoose: "Mongoose",
  sequelize: "Sequelize",
  "drizzle-orm": "Drizzle",
  zod: "Zod",
  "socket.io": "Socket.IO",
  graphql: "GraphQL",
  "@apollo/server": "Apollo Server",
  vitest: "Vitest",
  jest: "Jest",
  mocha: "Mocha",
  commander: "Commander",
  yargs: "yargs",
  flask: "Flask",
  fastapi: "FastAPI",
  django: "Django",
  djangorestframework: "Django REST framework",
  rest_framework: "Django REST framework",
  starlette: "Starlette",
  sqlalchemy: "SQLAlchemy",
  sqlmodel: "SQLModel",
  pydantic: "Pydantic",
  celery: "Celery",
  pytest: "pytest",
  aiohttp: "aiohttp",
  tornado: "Tornado",
  click: "Click",
  typer: "Typer",
};

/**
 * Frameworks named by the project's manifests (package.json dependencies, requirements.txt,
 * pyproject.toml) or imported by its sources. Sorted, each once.
 */
export function detectFrameworks(
  manifests: { packageJson?: unknown; pythonRequirements?: string },
  importedPackages: Iterable<string>,
): string[] {
  const names = new Set<string>();
  const pkg = manifests.packageJson as Record<string, Record<string, unknown> | undefined> | undefined;
  for (const field of ["dependencies", "devDependencies", "peerDependencies"]) {
    for (const dependency of Object.keys(pkg?.[field] ?? {})) {
      const framework = FRAMEWORKS[dependency];
      if (framework) names.add(framework);
    }
  }
  for (const match of (manifests.pythonRequirements ?? "").toLowerCase().matchAll(/[a-z0-9_.-]+/g)) {
    const framework = FRAMEWORKS[match[0].replace(/-/g, "_")] ?? FRAMEWORKS[match[0]];
    if (framework) names.add(framework);
  }
  for (const name of importedPackages) {
    const framework = FRAMEWORKS[name];
    if (framework) names.add(framework);
  }
  return [...names].sort();
}
