/**
 * How a request presents its access token to a resource server: `Authorization: Bearer <token>`,
 * or `Authorization: DPoP <token>` with a `DPoP` proof naming the method and URL (RFC 9449).
 * The URL is built from the configured base URL the request came through, never from Host.
 */
import type { IncomingMessage } from 'node:http';
import type { Presentation } from './dpop.js';

export function presentationOf(
  req: IncomingMessage,
  scheme: 'Bearer' | 'DPoP',
  baseUrl: string,
): Presentation {
  if (scheme === 'Bearer') return { scheme };
  const path = ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/').split('?')[0];
  const proof = req.headers.dpop;
  return {
    scheme,
    proof: typeof proof === 'string' ? proof : undefined,
    method: req.method ?? 'GET',
    url: `${baseUrl.replace(/\/+$/, '')}${path}`,
  };
}
