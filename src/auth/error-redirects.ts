/**
 * The authorization endpoint is no open redirector (RFC 9700 §4.11.2: an authorization server
 * "should only automatically redirect the user agent if it trusts the redirection URI"). Anyone
 * may register a client with any https redirect URI, and an error answer goes to it at once, with
 * nobody signing in: `/oauth/authorize?client_id=<theirs>&prompt=none…` sent a visitor of this
 * host straight on to the stranger's address (login_required; so did invalid_scope, a missing
 * PKCE challenge, an unsupported response_type).
 *
 * So an error is redirected only for a client a person trusts: one a person approved whose grant
 * still holds, or a first-party client. For any other it is the error page, naming the error and
 * where the client asked to be sent, with a link there the person may follow (§4.11.2: "inform
 * the user and rely on the user to make the correct decision"). `access_denied` goes back as
 * before: it follows the person's own Deny on the consent page.
 */
import type Provider from 'oidc-provider';
import { destinationOf } from './interaction/destination.js';
import { renderHeldError } from './interaction/views.js';

/** the error a redirect carries to the client (in its query, or its fragment), if any */
function errorOf(location: string): { error: string; description: string } | null {
  if (!URL.canParse(location)) return null;
  const url = new URL(location);
  for (const params of [url.searchParams, new URLSearchParams(url.hash.slice(1))]) {
    const error = params.get('error');
    if (error) return { error, description: params.get('error_description') ?? '' };
  }
  return null;
}

export function holdUntrustedErrorRedirects(
  provider: Provider,
  trusted: (clientId: string) => Promise<boolean>,
): void {
  provider.use(async (ctx, next) => {
    await next();
    const route = ctx.oidc?.route;
    if (route !== 'authorization' && route !== 'resume') return;
    if (ctx.status < 300 || ctx.status >= 400) return;
    const location = ctx.response.get('Location');
    const error = errorOf(location);
    if (!error || error.error === 'access_denied') return;
    const clientId = ctx.oidc?.client?.clientId;
    if (clientId && (await trusted(clientId))) return;
    const destination = destinationOf(ctx.oidc?.params?.redirect_uri) ?? new URL(location).host;
    ctx.remove('Location');
    ctx.status = 400;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = renderHeldError(error.error, error.description, location, destination);
  });
}
