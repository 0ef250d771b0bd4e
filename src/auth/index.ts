export type { VerifiedAccessToken } from './access-token.js';
export type { ConnectedApp } from './connected-apps.js';
export { grantHolder } from './connected-apps.js';
export { DPOP_ALGS, type Presentation } from './dpop.js';
export { AuthConfigurationError, Unauthenticated } from './errors.js';
export { presentationOf } from './presentation.js';
export {
  createIdTokenVerifier,
  isAnonymous,
  type TrustedIssuer,
  type VerifiedIdToken,
  verifyIdToken,
} from './id-token.js';
export { createDevMailbox } from './mail/dev-mailbox.js';
export type { MailMessage, MailPort } from './mail/port.js';
export {
  type AccountsPort,
  type AuthLogger,
  type AuthorizationServerOptions,
  DEFAULT_SIGN_IN_LIMITS,
  type RefreshPolicy,
  type SignInLimits,
} from './options.js';
export { clientNetwork } from './per-ip-limit.js';
export { PROTECTED_RESOURCE_PATH, wwwAuthenticateFor } from './resource-metadata.js';
export { type AuthorizationServer, createAuthorizationServer } from './server.js';
export { type ClientSweep, startClientSweep } from './storage/client-sweep.js';
export { feedbackAuthPreset, notesAuthPreset } from './presets.js';
export {
  endpointChallenge,
  endpointResourceMetadata,
  resourceMetadataUrl,
} from './resource-indicators.js';
