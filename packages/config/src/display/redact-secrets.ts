import { isPlainObject } from "../key-paths/key-path.js";

/** Shown in place of a secret value. */
export const REDACTED_VALUE = "[redacted]";

const SECRET_KEY = /(api_key|token|secret|password)/i;
/** Maps whose values are often credentials (`env = { GITHUB_TOKEN = … }`, `Authorization` headers). */
const SECRET_MAPS = [/^mcp\.servers\.[^.]+\.(env|headers)\.[^.]+$/, /^shell\.env\.[^.]+$/];

/** Whether the value at this dotted key path may be a credential and must not be printed. */
export function isSecretKeyPath(keyPath: string): boolean {
  const last = keyPath.split(".").at(-1) ?? "";
  return SECRET_KEY.test(last) || SECRET_MAPS.some((pattern) => pattern.test(keyPath));
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
