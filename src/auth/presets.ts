/**
 * The per-service settings (figures documented in options.ts). A service spreads one of these
 * into createAuthorizationServer together with its issuer, read store and accounts.
 */
import type { AuthorizationServerOptions } from './options.js';

type Preset = Pick<
  AuthorizationServerOptions,
  | 'discoveryPath'
  | 'resourceScopes'
  | 'defaultScope'
  | 'oidcScopes'
  | 'accessTokenTtlSeconds'
  | 'refreshTokenTtlSeconds'
  | 'refreshPolicy'
  | 'registrationLimit'
  | 'errorEnvelope'
>;

const DAY = 24 * 60 * 60;

export const feedbackAuthPreset: Preset = {
  discoveryPath: '/.well-known/openid-configuration',
  resourceScopes: ['service.public'],
  // spec: "default (no scope) = full maker surface": `openid` grants no resource scope
  defaultScope: 'openid',
  oidcScopes: ['profile', 'email', 'offline_access'],
  accessTokenTtlSeconds: 60 * 60,
  refreshTokenTtlSeconds: 90 * DAY,
  refreshPolicy: 'always',
  registrationLimit: { max: 20, windowSeconds: 10 * 60 },
  // spec: "Every 4xx and 5xx answer has one envelope: {error, code}"
  errorEnvelope: (message, code) => ({ error: message, code }),
};

export const notesAuthPreset: Preset = {
  discoveryPath: '/.well-known/oauth-authorization-server',
  resourceScopes: ['notes'],
  // notes spec: "exactly one scope, notes"
  defaultScope: 'notes',
  oidcScopes: ['offline_access'],
  accessTokenTtlSeconds: 30 * DAY,
  refreshTokenTtlSeconds: 90 * DAY,
  refreshPolicy: 'offline_access-only',
  // issue 6: "30 per IP per hour, then 429"
  registrationLimit: { max: 30, windowSeconds: 60 * 60 },
  // notes spec: "Errors are JSON {error: string} where the string is a message"
  errorEnvelope: (message) => ({ error: message }),
};
