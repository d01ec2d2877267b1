export { type Credential, type CredentialSource, credentialSecret } from "./credentials/credential.js";
