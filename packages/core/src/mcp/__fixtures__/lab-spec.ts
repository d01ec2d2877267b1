import { join } from "node:path";
import type { McpServerSpec } from "../mcp-server-config.js";

/** The stdio fixture server script (plain ESM, run with `node`). */
export const LAB_SERVER_SCRIPT = join(import.meta.dirname, "stdio-server.mjs");

/** A stdio spec running the fixture server as `name` with `args` (`--tools=20`, `--hang` …). */
export function labSpec(name: string, args: string[] = [], extra: Partial<McpServerSpec> = {}): McpServerSpec {
  return {
    name,
    transport: "stdio",
    command: process.execPath,
    args: [LAB_SERVER_SCRIPT, `--name=${name}`, ...args],
    env: {},
    enabled: true,
    source: "config",
    ...extra,
  } as McpServerSpec;
}
