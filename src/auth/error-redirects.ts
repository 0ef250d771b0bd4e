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
 *
 * The decision is taken where oidc-provider hands an answer to the client's redirect URI: its
 * response modes (query, fragment, form_post), which both the authorization endpoint's error
 * handler and its success path call with the answer as data. Its `registerResponseMode` keeps the
 * first handler of a name, and the constructor registers the built-in ones through it
 * (lib/helpers/initialize_app.js), so a subclass overriding the method wraps each of them.
 */
import Provider, { type Configuration } from 'oidc-provider';
import { destinationOf } from './interaction/destination.js';
import { renderHeldError } from './interaction/views.js';

type ResponseMode = Parameters<Provider['registerResponseMode']>[1];
type Trusted = (clientId: string) => Promise<boolean>;

/** the modes this server offers; a provider whose modes we did not wrap is refused at start */
const MODES = ['query', 'fragment', 'form_post'];

/** the address the answer would go to: `payload` in the redirect URI's fragment, or its query */
function addressOf(mode: string, redirectUri: string, payload: Record<string, unknown>): string {
  const url = new URL(redirectUri);
  const fields = Object.entries(payload).map(([key, value]) => [key, String(value)]);
  if (mode === 'fragment') url.hash = new URLSearchParams(fields).toString();
  else for (const [key, value] of fields) url.searchParams.set(key ?? '', value ?? '');
  return url.href;
}

/** `handler`, except that an error for a client nobody trusts is shown here instead */
function heldForUntrusted(mode: string, handler: ResponseMode, trusted: Trusted): ResponseMode {
  return async function (this: unknown, ctx, redirectUri, payload) {
    const error = 'error' in payload ? String(payload.error) : null;
    const clientId = ctx.oidc.client?.clientId;
    if (!error || error === 'access_denied' || (clientId && (await trusted(clientId))))
      return handler.call(this, ctx, redirectUri, payload);
    const location = addressOf(mode, redirectUri, payload);
    const description = String(payload.error_description ?? '');
    ctx.status = 400;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = renderHeldError(
      error,
      description,
      location,
      destinationOf(redirectUri) ?? new URL(location).host,
    );
  };
}

/** an oidc-provider whose response modes redirect an error only for a client `trusted` says */
export function createGuardedProvider(
  issuer: string,
  configuration: Configuration,
  trusted: Trusted,
): Provider {
  const wrapped = new Set<string>();
  class GuardedProvider extends Provider {
    override registerResponseMode(name: string, handler: ResponseMode): void {
      wrapped.add(name);
      super.registerResponseMode(name, heldForUntrusted(name, handler, trusted));
    }
  }
  const provider = new GuardedProvider(issuer, configuration);
  // an oidc-provider that registers its modes some other way would redirect every error again
  const missed = MODES.filter((mode) => !wrapped.has(mode));
  if (missed.length > 0)
    throw new Error(`oidc-provider's response modes ${missed.join(', ')} were not wrapped`);
  return provider;
}
