/**
 * Keys read only from the global config file: a cloned repository (project and local files) must
 * not set them, and neither may the environment or a flag. `projects` (which project roots the
 * user trusts) is one: a project must not be able to trust itself. A value for them anywhere else
 * is ignored with a warning.
 */
export const GLOBAL_ONLY_KEYS: readonly string[] = ["projects"];

export function isGlobalOnlyKey(keyPath: string): boolean {
  return GLOBAL_ONLY_KEYS.includes(keyPath);
}
