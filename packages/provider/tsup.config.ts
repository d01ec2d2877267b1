import { defineConfig } from "tsup";

export default defineConfig({
  // `http/web-globals` is a second entry (`@nyzhi/provider/web-globals`), sharing its classes with
  // the main entry through a common chunk.
  entry: { index: "src/index.ts", "http/web-globals": "src/http/web-globals.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  target: "node20",
  sourcemap: true,
});
