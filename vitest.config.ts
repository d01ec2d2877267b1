import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests import workspace packages from source, so unit tests need no build.
// End-to-end tests under test/e2e run the built `nyz` binary (the root `test` script builds first).
export default defineConfig({
  resolve: {
    alias: {
      "@nyzhi/config": src("./packages/config/src/index.ts"),
      "@nyzhi/auth": src("./packages/auth/src/index.ts"),
      "@nyzhi/provider": src("./packages/provider/src/index.ts"),
      "@nyzhi/index": src("./packages/index/src/index.ts"),
      "@nyzhi/core": src("./packages/core/src/index.ts"),
      "@nyzhi/tui": src("./packages/tui/src/index.ts"),
      "@nyzhi/mock-llm": src("./tools/mock-llm/src/index.ts"),
    },
  },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/src/**/*.test.tsx",
      "tools/*/src/**/*.test.ts",
      "test/**/*.test.ts",
      "bench/**/*.test.ts",
    ],
    // bench/*/.cache: third-party code the benchmarks keep between runs (node_modules copies).
    exclude: ["**/node_modules/**", "**/dist/**", "**/__fixtures__/**", "bench/*/.cache/**"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // Unit tests never touch the real home: every nyzhi directory (data, locks, cache) goes to a
    // temporary NYZHI_HOME unless a test passes its own environment.
    env: { NYZHI_LOG: "silent", NYZHI_HOME: mkdtempSync(join(tmpdir(), "nyzhi-vitest-home-")) },
  },
});
