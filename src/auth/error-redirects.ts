/**
 * The authorization endpoint is no open redirector (RFC 9700 §4.11.2: an authorization server
 * "should only automatically redirect the user agent if it trusts the redirection URI"). Anyone
 * may register a client with any https redirect URI, and an error answer goes to it at once, with
 * nobody signing in: `/oauth/authorize?client_id=<theirs>&prompt=none…` sent a visitor of this
 * host straight on to the stranger's address (login_required; so did invalid_scope, a missing
 * PKCE challenge, an unsupported response_type), or posted it there (`response_mode=form_post`).
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

interface SentError {
  /** where it goes: the redirect's address, or the posted form's action with its fields */
  location: string;
  error: string;
  description: string;
}

/** the error a redirect carries to the client (in its query, or its fragment), if any */
function redirectedError(status: number, location: string): SentError | null {
  if (status < 300 || status >= 400 || !URL.canParse(location)) return null;
  const url = new URL(location);
  for (const params of [url.searchParams, new URLSearchParams(url.hash.slice(1))]) {
    const error = params.get('error');
    if (error) return { location, error, description: params.get('error_description') ?? '' };
  }
  return null;
}

const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  );

/**
 * The error of `response_mode=form_post`: oidc-provider's page that posts it to the client by
 * itself (lib/response_modes/form_post.js, its script allowed by the CSP's hash).
 */
function postedError(body: unknown): SentError | null {
  if (typeof body !== 'string' || !body.includes('<title>Submitting Callback</title>')) return null;
  const action = /<form method="post" action="([^"]*)"/.exec(body)?.[1];
  if (!action || !URL.canParse(unescapeHtml(action))) return null;
  const url = new URL(unescapeHtml(action));
  for (const [, name, value] of body.matchAll(
    /<input type="hidden" name="([^"]+)" value="([^"]*)"/g,
  ))
    url.searchParams.append(name ?? '', unescapeHtml(value ?? ''));
  const error = url.searchParams.get('error');
  if (!error) return null;
  const description = url.searchParams.get('error_description') ?? '';
  return { location: url.href, error, description };
}

export function holdUntrustedErrorRedirects(
  provider: Provider,
  trusted: (clientId: string) => Promise<boolean>,
): void {
  provider.use(async (ctx, next) => {
    await next();
    const route = ctx.oidc?.route;
    if (route !== 'authorization' && route !== 'resume') return;
    const sent = redirectedError(ctx.status, ctx.response.get('Location')) ?? postedError(ctx.body);
    if (!sent || sent.error === 'access_denied') return;
    const clientId = ctx.oidc?.client?.clientId;
    if (clientId && (await trusted(clientId))) return;
    const destination =
      destinationOf(ctx.oidc?.params?.redirect_uri) ?? new URL(sent.location).host;
    ctx.remove('Location');
    ctx.status = 400;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = renderHeldError(sent.error, sent.description, sent.location, destination);
  });
}
