import { createHash, randomBytes } from "node:crypto";

/** A PKCE pair (RFC 7636, S256) and the `state` guarding the redirect. */
export interface PkcePair {
  verifier: string;
  challenge: string;
  state: string;
}

/** Verifier from 32 random bytes, state from 16, both base64url without padding (spec §2.7). */
export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString("base64url");
  return {
    verifier,
    challenge: pkceChallenge(verifier),
    state: randomBytes(16).toString("base64url"),
  };
}

/** The S256 code challenge of a verifier. */
export function pkceChallenge(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}
