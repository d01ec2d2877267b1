/**
 * Recognisable credential shapes. Memory is plain text that outlives the session and is injected
 * into every later prompt, so anything that looks like one of these is refused.
 */
const SECRET_PATTERNS: readonly { kind: string; pattern: RegExp }[] = [
  { kind: "a private key", pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  { kind: "an Anthropic/OpenAI-style API key", pattern: /\bsk-[A-Za-z0-9_-]{20,}/ },
  { kind: "an AWS access key id", pattern: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: "a GitHub token", pattern: /\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/ },
  { kind: "a GitLab token", pattern: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { kind: "a Slack token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { kind: "a Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}/ },
  { kind: "a Stripe key", pattern: /\b[rs]k_(live|test)_[A-Za-z0-9]{16,}/ },
  { kind: "a JSON Web Token", pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/ },
  { kind: "a bearer token", pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*/ },
  { kind: "credentials in a URL", pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]{3,}@/i },
  {
    kind: "a password or key assignment",
    pattern:
      /\b(api[_-]?key|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|token|passw(?:or)?d|pwd)\b["']?\s*[:=]\s*["']?(?![$<{]|process\.env|os\.environ|env\b)[^\s"',;]{8,}/i,
  },
];

/** Names the kind of secret `text` seems to contain (e.g. "a GitHub token"), or undefined. */
export function findSecret(text: string): string | undefined {
  return SECRET_PATTERNS.find(({ pattern }) => pattern.test(text))?.kind;
}
