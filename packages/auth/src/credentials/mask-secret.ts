/**
 * A secret shortened for display: its first 3 and last 4 characters (`sk-…abcd`). Secrets
 * shorter than 16 characters show only the last 2 (`…cd`), so a short key is never mostly revealed.
 */
export function maskSecret(secret: string): string {
  if (secret.length >= 16) return `${secret.slice(0, 3)}…${secret.slice(-4)}`;
  if (secret.length >= 6) return `…${secret.slice(-2)}`;
  return "…";
}
