/**
 * The per-service settings (figures documented in options.ts). A service spreads one of these
 * into createAuthorizationServer together with its issuer, read store and accounts.
 */
import type { AuthorizationServerOptions } from './options.js';

type Preset = Pick<
  AuthorizationServerOptions,
  | 'discoveryPath'
  | 'resourceScopes'
  | 'oidcScopes'
  | 'accessTokenTtlSeconds'
  | 'refreshTokenTtlSeconds'
  | 'refreshPolicy'
  | 'registrationLimit'
>;

const DAY = 24 * 60 * 60;

export const feedbackAuthPreset: Preset = {
  discoveryPath: '/.well-known/openid-configuration',
  resourceScopes: ['service.public'],
  oidcScopes: ['profile', 'email', 'offline_access'],
  accessTokenTtlSeconds: 60 * 60,
  refreshTokenTtlSeconds: 90 * DAY,
  refreshPolicy: 'always',
  registrationLimit: { max: 20, windowSeconds: 10 * 60 },
};

export const notesAuthPreset: Preset = {
  discoveryPath: '/.well-known/oauth-authorization-server',
  resourceScopes: ['notes'],
  oidcScopes: ['offline_access'],
  accessTokenTtlSeconds: 30 * DAY,
  refreshTokenTtlSeconds: 90 * DAY,
  refreshPolicy: 'offline_access-only',
  // issue 6: "30 per IP per hour, then 429"
  registrationLimit: { max: 30, windowSeconds: 60 * 60 },
};
