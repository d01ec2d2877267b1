import { isPlainObject } from "../key-paths/key-path.js";

/** Shown in place of a secret value. */
export const REDACTED_VALUE = "[redacted]";

/**
 * Key names whose values are credentials, matched against a whole key (in snake_case): `api_key`,
 * `apikey`, `token`, `secret`, `password`, `authorization`, and any `<something>_<one of those>`
 * (`telegram_bot_token`, `client_secret`, `GITHUB_TOKEN`). Not `max_tokens` or `api_key_env`.
 */
const SECRET_KEY = /^(?:.*_)?(api_key|apikey|token|secret|password|authorization)$/;
/** Maps whose values are often credentials (`env = { GITHUB_TOKEN = … }`, `Authorization` headers). */
const SECRET_MAPS = [/^mcp\.servers\.[^.]+\.(env|headers)\.[^.]+$/, /^shell\.env\.[^.]+$/];

/** Whether a single key name (`api_key`, `accessToken`, `X-Api-Key`) names a credential. */
export function isSecretKeyName(name: string): boolean {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/-/g, "_")
    .toLowerCase();
  return SECRET_KEY.test(snake);
}

/** Whether the value at this dotted key path may be a credential and must not be printed. */
export function isSecretKeyPath(keyPath: string): boolean {
  const last = keyPath.split(".").at(-1) ?? "";
  return isSecretKeyName(last) || SECRET_MAPS.some((pattern) => pattern.test(keyPath));
}

/** A copy of `value` with every secret leaf replaced by `[redacted]`. */
export function redactSecrets<T>(value: T, path: string[] = []): T {
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const childPath = [...path, key];
        const secret = item !== undefined && !isPlainObject(item) && isSecretKeyPath(childPath.join("."));
        return [key, secret ? REDACTED_VALUE : redactSecrets(item, childPath)];
      }),
    ) as T;
  }
  if (Array.isArray(value))
    return value.map((item, index) => redactSecrets(item, [...path, String(index)])) as T;
  return value;
}

/**
 * Calls `visit` with every string leaf of `value` whose own key names a credential
 * (`provider.anthropic.api_key`, `mcp.servers.github.env.GITHUB_TOKEN`, a header `Authorization`).
 */
export function forEachSecretValue(value: unknown, visit: (secret: string) => void, key = ""): void {
  if (typeof value === "string") {
    if (isSecretKeyName(key)) visit(value);
  } else if (isPlainObject(value)) {
    for (const [childKey, item] of Object.entries(value)) forEachSecretValue(item, visit, childKey);
  } else if (Array.isArray(value)) {
    for (const item of value) forEachSecretValue(item, visit, key);
  }
}
