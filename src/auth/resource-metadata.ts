/** RFC 9728 protected-resource metadata and the WWW-Authenticate header that points to it. */

export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: ['header'];
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
    ...(name ? { resource_name: name } : {}),
  };
}

export type BearerError = 'invalid_token' | 'insufficient_scope' | 'invalid_request';

/**
 * `Bearer resource_metadata="…"` for a 401 without a token, plus `error="…"` when a token was
 * refused (invalid_token) or is too narrow (insufficient_scope, with the needed scope).
 */
export function wwwAuthenticateFor(baseUrl: string, error?: BearerError, scope?: string): string {
  const parts = [`resource_metadata="${baseUrl}${PROTECTED_RESOURCE_PATH}"`];
  if (error) parts.push(`error="${error}"`);
  if (scope) parts.push(`scope="${scope.replaceAll('"', '')}"`);
  return `Bearer ${parts.join(', ')}`;
}
