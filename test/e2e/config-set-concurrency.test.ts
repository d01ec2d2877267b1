import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

// `nyz config set` holds the config file's lock from its read to its rename, so concurrent runs
// setting different keys all land (without it, most of them overwrote each other's change).

const WRITERS = 8;
const KEYS_PER_WRITER = 10;

describe("nyz config set from concurrent processes", () => {
  it(`${WRITERS} processes × ${KEYS_PER_WRITER} keys into one config.toml: all ${WRITERS * KEYS_PER_WRITER} kept`, async () => {
    const home = await tempHome();
    const cwd = await tempProject("nyzhi-config-race-");
    const env = { NYZHI_HOME: home };
    const name = (writer: number, key: number) => `w${writer}k${key}`;
    // Each writer is a chain of real `nyz` processes, one per key; the chains run side by side.
    const writer = async (index: number) => {
      for (let key = 0; key < KEYS_PER_WRITER; key += 1) {
        const role = name(index, key);
        const result = await runNyz(
          ["config", "set", "--global", `agent.agents.roles.${role}.description`, `role ${role}`],
          { cwd, env, timeoutMs: 60_000 },
        );
        expect(result.stderr).toMatch(/^Set agent\.agents\.roles\.\S+\.description in /);
        expect(result.code).toBe(0);
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, index) => writer(index)));

    const shown = await runNyz(["config", "--json"], { cwd, env, timeoutMs: 60_000 });
    expect(shown.code).toBe(0);
    const written = JSON.parse(shown.stdout) as { agent: { agents: { roles: Record<string, unknown> } } };
    const expected: Record<string, unknown> = {};
    for (let index = 0; index < WRITERS; index += 1)
      for (let key = 0; key < KEYS_PER_WRITER; key += 1)
        expected[name(index, key)] = { description: `role ${name(index, key)}`, enabled: true };
    expect(Object.keys(written.agent.agents.roles)).toHaveLength(WRITERS * KEYS_PER_WRITER);
    expect(written.agent.agents.roles).toEqual(expected);
    // The lock is released and no temp file is left.
    expect(await readdir(join(home, "config"))).toEqual(["config.toml"]);
  }, 240_000);
});
