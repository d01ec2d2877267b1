import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

// The bin is tiny: `nyz --version` answers from a constant without loading anything else;
// every command's module (and the heavy SDKs, TUI, index, MCP behind it) loads through `import()`.
export default defineConfig({
  entry: { nyz: "src/bin/nyz.ts", index: "src/index.ts" },
  format: ["esm"],
  dts: { entry: { index: "src/index.ts" } },
  clean: true,
  target: "node20",
  splitting: true,
  sourcemap: true,
  define: { __NYZHI_VERSION__: JSON.stringify(version) },
});
