export { credentialSecret, type Credential, type CredentialSource } from "./credentials/credential.js";
