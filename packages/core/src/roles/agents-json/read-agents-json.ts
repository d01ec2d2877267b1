import { readFile } from "node:fs/promises";
import { errorMessage } from "@nyzhi/config";

/** An agents.json file as found on disk. */
export type AgentsJsonFile =
  | { state: "missing" }
  /** Parsed top-level object; entries are not validated yet. */
  | { state: "ok"; entries: Record<string, unknown> }
  /** Unreadable, not JSON, or not a JSON object: reported, never overwritten. */
  | { state: "corrupt"; reason: string };

/** Reads and parses one agents.json. Never throws. */
export async function readAgentsJson(path: string): Promise<AgentsJsonFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "missing" };
    return { state: "corrupt", reason: `cannot be read (${errorMessage(error)})` };
  }
  if (text.trim() === "") return { state: "ok", entries: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { state: "corrupt", reason: `is not valid JSON (${errorMessage(error)})` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return { state: "corrupt", reason: "is not a JSON object of agent definitions" };
  return { state: "ok", entries: parsed as Record<string, unknown> };
}
