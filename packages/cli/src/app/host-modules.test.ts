import { describe, expect, it } from "vitest";
import { HOST_MODULES } from "./host-modules.js";

describe("HOST_MODULES", () => {
  it("hands the app a value for every name it lists", () => {
    for (const [module, exports] of Object.entries(HOST_MODULES)) {
      for (const [name, value] of Object.entries(exports)) expect(value, `${module} ${name}`).toBeDefined();
    }
  });
});
