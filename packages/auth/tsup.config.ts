import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  target: "node20",
  sourcemap: true,
  // An optional dependency (tsup leaves out only dependencies and peers by default): the native
  // keyring addon is loaded at run time, when there is one for this platform.
  external: ["@napi-rs/keyring"],
});
