export {
  accountToCredential,
  DEFAULT_ACCOUNT_LABEL,
  isCoolingDown,
  pickUsableAccount,
  removeAccountByLabel,
  upsertAccount,
} from "./accounts/account-list.js";
export {
  AccountRotation,
  type AccountRotationOptions,
  DEFAULT_RATE_LIMIT_COOLDOWN_MS,
  type OnRateLimited,
} from "./accounts/account-rotation.js";
export {
  type AuthStatusAccount,
  type AuthStatusConfig,
  type AuthStatusOptions,
  type AuthStatusRow,
  authStatus,
  formatAuthStatus,
} from "./commands/auth-status.js";
export { type LoginOptions, type LoginResult, login } from "./commands/login.js";
export { type LogoutOptions, type LogoutResult, logout } from "./commands/logout.js";
export { type Credential, type CredentialSource, credentialSecret } from "./credentials/credential.js";
export { envVarForProvider } from "./credentials/env-var-for-provider.js";
export {
  candidateProviders,
  type FindProvidersWithCredentialsOptions,
  findProvidersWithCredentials,
  PROVIDER_PREFERENCE,
  type ProviderCredentialConfig,
  type ProvidersWithCredentials,
} from "./credentials/find-providers-with-credentials.js";
export { maskSecret } from "./credentials/mask-secret.js";
export {
  type ResolveCredentialOptions,
  requireCredential,
  resolveCredential,
} from "./credentials/resolve-credential.js";
export {
  CorruptAuthFileError,
  KeychainUnavailableError,
  MissingCredentialError,
  OAuthError,
} from "./errors/auth-errors.js";
export { buildAuthorizeUrl, runAuthorizationCodeFlow } from "./oauth/authorization-code-flow.js";
export { type DeviceCodeFlowOptions, runDeviceCodeFlow } from "./oauth/device-code-flow.js";
export { type EnsureFreshOptions, ensureFresh, needsRefresh, REFRESH_SKEW_MS } from "./oauth/ensure-fresh.js";
export type { LoginIo } from "./oauth/login-io.js";
export {
  type AuthorizationCodeProvider,
  type DeviceCodeProvider,
  defaultOAuthProviders,
  type OAuthProvider,
  type OAuthProviderTable,
} from "./oauth/oauth-providers.js";
export { openBrowser } from "./oauth/open-browser.js";
export { createPkcePair, type PkcePair, pkceChallenge } from "./oauth/pkce.js";
export { type OAuthTokens, refreshOAuthTokens } from "./oauth/token-requests.js";
export type {
  CredentialStore,
  CredentialStoreKind,
  StoredAccount,
  StoredSecret,
} from "./store/credential-store.js";
export { createFileCredentialStore } from "./store/file-credential-store.js";
export {
  createKeychainCredentialStore,
  DEFAULT_KEYCHAIN_SERVICE,
  type KeychainStoreOptions,
  probeKeychain,
} from "./store/keychain-credential-store.js";
export {
  type OpenCredentialStoreOptions,
  type OpenedCredentialStore,
  openCredentialStore,
} from "./store/open-credential-store.js";
