import { readFile } from "node:fs/promises";
import type { Scenario } from "../types.js";
import { ScenarioError } from "./scenario-error.js";
import { validateScenario } from "./validate-scenario.js";

/** Reads and validates a JSON scenario file. Errors are `ScenarioError`s naming the file and the problem. */
export async function loadScenario(file: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new ScenarioError(
      `${file}: cannot read scenario file: ${(error as Error).message}`,
      file,
      undefined,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(`${file}: not valid JSON: ${(error as Error).message}`, file, undefined);
  }
  return validateScenario(value, file);
}
