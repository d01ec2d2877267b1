/** A scenario that cannot be used; the message names the source (file or "scenario") and the bad field. */
export class ScenarioError extends Error {
  override readonly name = "ScenarioError";
  constructor(
    message: string,
    readonly source: string,
    readonly field: string | undefined,
  ) {
    super(message);
  }
}
