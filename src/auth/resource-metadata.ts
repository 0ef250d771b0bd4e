/** RFC 9728 protected-resource metadata and the WWW-Authenticate header that points to it. */
import { DPOP_ALGS } from './dpop.js';

export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: ['header'];
  dpop_signing_alg_values_supported: string[];
  dpop_bound_access_tokens_required: false;
  resource_name?: string;
}

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

export function protectedResourceMetadataFor(
  baseUrl: string,
  scopes: string[],
  name?: string,
): ProtectedResourceMetadata {
  return {
    resource: baseUrl,
    authorization_servers: [baseUrl],
    scopes_supported: scopes,
    bearer_methods_supported: ['header'],
    dpop_signing_alg_values_supported: DPOP_ALGS,
    dpop_bound_access_tokens_required: false,
    ...(name ? { resource_name: name } : {}),
  };
}

export type BearerError =
  | 'invalid_token'
  | 'insufficient_scope'
  | 'invalid_request'
  | 'invalid_dpop_proof';

/**
 * `Bearer resource_metadata="…"` for a 401 without a token, plus `error="…"` when a token was
 * refused (invalid_token) or is too narrow (insufficient_scope, with the needed scope).
 */
export function wwwAuthenticateFor(
  baseUrl: string,
  error?: BearerError,
  scope?: string,
  scheme: 'Bearer' | 'DPoP' = 'Bearer',
): string {
  return challengeWith(`${baseUrl}${PROTECTED_RESOURCE_PATH}`, error, scope, scheme);
}

/** The same challenge for a resource whose metadata lives elsewhere (resource-indicators.ts). */
export function challengeWith(
  metadataUrl: string,
  error?: BearerError,
  scope?: string,
  scheme: 'Bearer' | 'DPoP' = 'Bearer',
): string {
  const parts = [`resource_metadata="${metadataUrl}"`];
  // RFC 9449 §7.1: a DPoP challenge names the proof algorithms the server accepts
  if (scheme === 'DPoP') parts.push(`algs="${DPOP_ALGS.join(' ')}"`);
  if (error) parts.push(`error="${error}"`);
  if (scope) parts.push(`scope="${scope.replaceAll('"', '')}"`);
  return `${scheme} ${parts.join(', ')}`;
}
