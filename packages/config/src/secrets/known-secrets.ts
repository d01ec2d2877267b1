import { REDACTED_VALUE } from "../display/redact-secrets.js";

/**
 * The credentials this process holds (API keys and tokens from flags, config, environment and the
 * credential store), registered as they are resolved, so every boundary that prints, logs, emits
 * or saves text can replace them with `[redacted]`: the CLI's stdout/stderr writers, the `--json`
 * event writer, the log file, saved sessions and exports.
 *
 * Kept on `globalThis` under a registered symbol: the CLI bundle and a package loaded beside it
 * (tests, library hosts) share one registry even when `@nyzhi/config` is loaded twice.
 */
interface Registry {
  /** Every form to replace (the secret and its escaped spellings), longest first. */
  forms: string[];
  secrets: Set<string>;
}

/** Secrets shorter than this (characters) are not registered: they would redact ordinary words. */
export const MIN_SECRET_LENGTH = 8;

const REGISTRY_KEY = Symbol.for("nyzhi.known-secrets");

function registry(): Registry {
  const holder = globalThis as { [REGISTRY_KEY]?: Registry };
  holder[REGISTRY_KEY] ??= { forms: [], secrets: new Set() };
  return holder[REGISTRY_KEY];
}

/**
 * Remembers a credential so `redactKnownSecrets` hides it. Blank values and values shorter than
 * `MIN_SECRET_LENGTH` are ignored; registering one twice is a no-op.
 */
export function registerSecret(secret: string | undefined): void {
  const value = secret?.trim();
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  const known = registry();
  if (known.secrets.has(value)) return;
  known.secrets.add(value);
  // The obvious spellings: as is, inside a JSON string, and percent-encoded in a URL.
  const forms = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]);
  for (const form of forms) if (!known.forms.includes(form)) known.forms.push(form);
  known.forms.sort((a, b) => b.length - a.length);
}

/** `text` with every registered secret (in any of its spellings) replaced by `[redacted]`. */
export function redactKnownSecrets(text: string): string {
  const { forms } = registry();
  let result = text;
  for (const form of forms) if (result.includes(form)) result = result.split(form).join(REDACTED_VALUE);
  return result;
}

/**
 * The longest tail of `text` that is the start of a registered secret: a writer streaming text in
 * pieces holds it back until the next piece shows whether the secret follows.
 */
export function pendingSecretPrefixLength(text: string): number {
  let longest = 0;
  for (const form of registry().forms) {
    for (let length = Math.min(form.length - 1, text.length); length > longest; length--) {
      if (text.endsWith(form.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

/** Forgets every registered secret (tests). */
export function forgetKnownSecrets(): void {
  const known = registry();
  known.forms = [];
  known.secrets.clear();
}

/** Environment variables whose values are credentials: `*_API_KEY`, `*_TOKEN`, `*_SECRET`, … */
const CREDENTIAL_VARIABLE = /(^|_)(API_KEY|APIKEY|ACCESS_KEY|SECRET_KEY|TOKEN|SECRET|PASSWORD)$/i;

/**
 * Registers the values of the environment's credential variables (`ANTHROPIC_API_KEY`,
 * `GITHUB_TOKEN`, …), so a key nyzhi might hold is hidden even before a provider resolves it.
 */
export function registerEnvironmentSecrets(env: Readonly<Record<string, string | undefined>>): void {
  for (const [name, value] of Object.entries(env)) {
    if (CREDENTIAL_VARIABLE.test(name)) registerSecret(value);
  }
}
