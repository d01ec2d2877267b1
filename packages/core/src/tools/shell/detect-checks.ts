import { access, readFile } from "node:fs/promises";
import { join } from "node:path";

/** One verification step (`[agent.verify].checks` entry). */
export interface VerifyCheck {
  /** build, test, lint or anything else (custom). */
  kind: string;
  command: string;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Guesses the project's checks from its manifest (first match wins): Cargo.toml, package.json
 * (only scripts that exist, run with the package manager its lockfile names), go.mod,
 * pyproject.toml / setup.py. Empty when nothing is recognised.
 */
export async function detectChecks(root: string): Promise<VerifyCheck[]> {
  if (await exists(join(root, "Cargo.toml"))) {
    return [
      { kind: "build", command: "cargo check" },
      { kind: "test", command: "cargo test" },
      { kind: "lint", command: "cargo clippy -- -D warnings" },
    ];
  }
  if (await exists(join(root, "package.json"))) return detectNodeChecks(root);
  if (await exists(join(root, "go.mod"))) {
    return [
      { kind: "build", command: "go build ./..." },
      { kind: "test", command: "go test ./..." },
      { kind: "lint", command: "go vet ./..." },
    ];
  }
  if ((await exists(join(root, "pyproject.toml"))) || (await exists(join(root, "setup.py")))) {
    return [
      { kind: "test", command: "python -m pytest" },
      { kind: "lint", command: "python -m ruff check ." },
    ];
  }
  return [];
}

async function detectNodeChecks(root: string): Promise<VerifyCheck[]> {
  let scripts: Record<string, unknown> = {};
  try {
    const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { scripts?: unknown };
    if (manifest.scripts && typeof manifest.scripts === "object")
      scripts = manifest.scripts as Record<string, unknown>;
  } catch {
    // An unreadable package.json has no scripts to run.
  }
  const runner = (await exists(join(root, "pnpm-lock.yaml")))
    ? "pnpm"
    : (await exists(join(root, "yarn.lock")))
      ? "yarn"
      : (await exists(join(root, "bun.lockb"))) || (await exists(join(root, "bun.lock")))
        ? "bun"
        : "npm";
  const checks: VerifyCheck[] = [];
  for (const kind of ["build", "typecheck", "test", "lint"]) {
    if (typeof scripts[kind] !== "string") continue;
    const command = kind === "test" && runner === "npm" ? "npm test" : `${runner} run ${kind}`;
    checks.push({ kind: kind === "typecheck" ? "build" : kind, command });
  }
  return checks;
}
