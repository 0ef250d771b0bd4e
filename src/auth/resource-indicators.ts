/**
 * Resources of their own under a service's base URL (RFC 8707 resource indicators), such as the
 * MCP endpoint `{base}/mcp`: the authorization server issues tokens whose audience is the
 * endpoint, and the endpoint publishes its own protected-resource metadata (RFC 9728 §3.1: the
 * well-known path with the resource's path appended) naming the service's authorization server.
 *
 * The service itself (its base URL) is the wider resource: a token for the service is accepted
 * at its endpoints too, while a token for one endpoint is accepted only there.
 */
import {
  type BearerError,
  challengeWith,
  PROTECTED_RESOURCE_PATH,
  type ProtectedResourceMetadata,
  protectedResourceMetadataFor,
} from './resource-metadata.js';

/** Every indicator the service issues tokens for: its base URLs, and each with every path. */
export function resourceIndicators(bases: readonly string[], paths: readonly string[]): string[] {
  return [...bases, ...bases.flatMap((base) => paths.map((path) => `${base}${path}`))];
}

export function resourceMetadataUrl(base: string, path: string): string {
  return `${base}${PROTECTED_RESOURCE_PATH}${path}`;
}

export function endpointResourceMetadata(input: {
  base: string;
  path: string;
  scopes: string[];
  name?: string;
}): ProtectedResourceMetadata {
  return {
    ...protectedResourceMetadataFor(input.base, input.scopes, input.name),
    resource: `${input.base}${input.path}`,
  };
}

/**
 * RFC 6750 §3 / RFC 9728 §5.1 challenge for an endpoint resource: where its metadata is, and
 * what was wrong with the token that came (none: no `error`); DPoP as in wwwAuthenticateFor.
 */
export function endpointChallenge(input: {
  base: string;
  path: string;
  error?: BearerError;
  scope?: string;
  scheme?: 'Bearer' | 'DPoP';
}): string {
  return challengeWith(
    resourceMetadataUrl(input.base, input.path),
    input.error,
    input.scope,
    input.scheme,
  );
}
