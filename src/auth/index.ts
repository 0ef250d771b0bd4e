export type { VerifiedAccessToken } from './access-token.js';
export type { ConnectedApp } from './connected-apps.js';
export { AuthConfigurationError, Unauthenticated } from './errors.js';
export {
  createIdTokenVerifier,
  isAnonymous,
  type TrustedIssuer,
  type VerifiedIdToken,
  verifyIdToken,
} from './id-token.js';
export { createDevMailbox } from './mail/dev-mailbox.js';
export type { MailMessage, MailPort } from './mail/port.js';
export type { AccountsPort, AuthorizationServerOptions, RefreshPolicy } from './options.js';
export { clientIp } from './registration-limit.js';
export { PROTECTED_RESOURCE_PATH, wwwAuthenticateFor } from './resource-metadata.js';
export { type AuthorizationServer, createAuthorizationServer } from './server.js';
export { feedbackAuthPreset, notesAuthPreset } from './presets.js';
