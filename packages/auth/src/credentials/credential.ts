import { registerSecret } from "@nyzhi/config";

/** Where a credential came from, lowest priority last: flag, config `api_key`, env var, stored. */
export type CredentialSource = "flag" | "config" | "env" | "store";

/**
 * A secret that authenticates requests to one provider. API keys and OAuth tokens are kept
 * apart because providers send them differently (Anthropic: `x-api-key` versus
 * `Authorization: Bearer`).
 */
export type Credential =
  | {
      type: "api-key";
      providerId: string;
      key: string;
      source: CredentialSource;
      /** Account label when the store holds several accounts for the provider. */
      account?: string;
      /** The environment variable it came from, when source is `env`. */
      envVar?: string;
    }
  | {
      type: "oauth";
      providerId: string;
      accessToken: string;
      refreshToken?: string;
      /** Epoch ms. */
      expiresAt?: number;
      source: CredentialSource;
      account?: string;
    };

/** The secret to put on the wire, whatever the credential's type. */
export function credentialSecret(credential: Credential): string {
  return credential.type === "api-key" ? credential.key : credential.accessToken;
}

/**
 * Registers the credential's secrets (key, access and refresh token) with the process's known
 * secrets, so no output, log line or saved session shows them. Returns the credential.
 */
export function registerCredential<T extends Credential | undefined>(credential: T): T {
  if (credential?.type === "api-key") registerSecret(credential.key);
  else if (credential?.type === "oauth") {
    registerSecret(credential.accessToken);
    registerSecret(credential.refreshToken);
  }
  return credential;
}
