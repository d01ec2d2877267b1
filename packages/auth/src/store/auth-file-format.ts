import type { StoredAccount, StoredSecret } from "./credential-store.js";

/** The providers map held in `auth.json` (and in the keychain's index, without secrets). */
export type AccountsByProvider = Record<string, StoredAccount[]>;

/** Current on-disk shape: `{ "version": 1, "providers": { "<id>": [account, …] } }`. */
export const AUTH_FILE_VERSION = 1;

/** Thrown by the parser; the caller wraps it with the file path. Never holds file content. */
export class AuthFileShapeError extends Error {}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalNumber(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new AuthFileShapeError(`${where} must be a number`);
  }
  return value;
}

function requireString(value: unknown, where: string): string {
  if (typeof value !== "string" || value === "") throw new AuthFileShapeError(`${where} must be a string`);
  return value;
}

function parseSecret(value: unknown, where: string): StoredSecret {
  if (!isObject(value)) throw new AuthFileShapeError(`${where} must be an object`);
  if (value.type === "api-key") return { type: "api-key", key: requireString(value.key, `${where}.key`) };
  if (value.type === "oauth") {
    const secret: StoredSecret = {
      type: "oauth",
      accessToken: requireString(value.accessToken, `${where}.accessToken`),
    };
    if (typeof value.refreshToken === "string" && value.refreshToken)
      secret.refreshToken = value.refreshToken;
    const expiresAt = optionalNumber(value.expiresAt, `${where}.expiresAt`);
    if (expiresAt !== undefined) secret.expiresAt = expiresAt;
    return secret;
  }
  throw new AuthFileShapeError(`${where}.type must be "api-key" or "oauth"`);
}

/**
 * The Rust store's token `{access_token, refresh_token, expires_at (unix s)}`. A token with a
 * refresh token is OAuth; one without is what `store_api_key` wrote, so it stays an API key.
 */
function parseLegacyToken(value: unknown, where: string): StoredSecret {
  if (!isObject(value)) throw new AuthFileShapeError(`${where} must be an object`);
  const accessToken = requireString(value.access_token, `${where}.access_token`);
  const refreshToken = typeof value.refresh_token === "string" ? value.refresh_token : "";
  const expiresAtSeconds = optionalNumber(value.expires_at, `${where}.expires_at`);
  if (!refreshToken && expiresAtSeconds === undefined) return { type: "api-key", key: accessToken };
  const secret: StoredSecret = { type: "oauth", accessToken };
  if (refreshToken) secret.refreshToken = refreshToken;
  if (expiresAtSeconds !== undefined) secret.expiresAt = expiresAtSeconds * 1000;
  return secret;
}

function parseAccount(value: unknown, where: string): StoredAccount {
  if (!isObject(value)) throw new AuthFileShapeError(`${where} must be an object`);
  const account: StoredAccount = {
    label: requireString(value.label, `${where}.label`),
    secret: parseSecret(value.secret, `${where}.secret`),
    active: value.active !== false,
  };
  const until = optionalNumber(value.rateLimitedUntil, `${where}.rateLimitedUntil`);
  if (until !== undefined) account.rateLimitedUntil = until;
  return account;
}

function parseLegacyProvider(value: unknown, where: string): StoredAccount[] {
  const entries = Array.isArray(value) ? value : [{ label: null, token: value, active: true }];
  return entries.map((entry, index) => {
    const at = `${where}[${index}]`;
    if (!isObject(entry)) throw new AuthFileShapeError(`${at} must be an object`);
    const account: StoredAccount = {
      label: typeof entry.label === "string" && entry.label ? entry.label : "default",
      secret: parseLegacyToken(entry.token, `${at}.token`),
      active: entry.active !== false,
    };
    const untilSeconds = optionalNumber(entry.rate_limited_until, `${at}.rate_limited_until`);
    if (untilSeconds !== undefined) account.rateLimitedUntil = untilSeconds * 1000;
    return account;
  });
}

/**
 * Parses the text of `auth.json`. Empty text is an empty store. The Rust format (provider id to an
 * account array, or to one bare token) is read too and rewritten in the current shape on the next save.
 */
export function parseAuthFile(text: string): AccountsByProvider {
  if (text.trim() === "") return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // The parser's message may quote file content (secrets), so it is not passed on.
    throw new AuthFileShapeError("not valid JSON");
  }
  if (!isObject(data)) throw new AuthFileShapeError("the top level must be an object");
  const result: AccountsByProvider = {};
  if (data.version === undefined) {
    for (const [providerId, value] of Object.entries(data)) {
      result[providerId] = parseLegacyProvider(value, providerId);
    }
    return result;
  }
  if (data.version !== AUTH_FILE_VERSION) {
    throw new AuthFileShapeError(`unsupported version ${JSON.stringify(data.version)}`);
  }
  if (!isObject(data.providers)) throw new AuthFileShapeError("providers must be an object");
  for (const [providerId, value] of Object.entries(data.providers)) {
    if (!Array.isArray(value)) throw new AuthFileShapeError(`providers.${providerId} must be an array`);
    result[providerId] = value.map((entry, index) =>
      parseAccount(entry, `providers.${providerId}[${index}]`),
    );
  }
  return result;
}

/** Serialises the store, pretty-printed, with a trailing newline. */
export function serializeAuthFile(providers: AccountsByProvider): string {
  return `${JSON.stringify({ version: AUTH_FILE_VERSION, providers }, null, 2)}\n`;
}
