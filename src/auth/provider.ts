/**
 * Builds one oidc-provider instance (one per issuer/host of a service). Everything OAuth is
 * oidc-provider's; this file only chooses: public clients, PKCE S256, code + refresh grants,
 * JWT access tokens for the service as resource, rotation on every refresh, our routes and UI.
 */
import type Provider from 'oidc-provider';
import { type Adapter, type Configuration, errors } from 'oidc-provider';
import type { AuthorizationServerOptions } from './options.js';
import type { ProviderKeys } from './storage/keys.js';
import { DPOP_ALGS } from './dpop.js';
import { createGuardedProvider } from './error-redirects.js';
import { renderErrorPage } from './interaction/views.js';
import { settleConsumes } from './storage/unsettled.js';
import { answerUnavailableInProvider } from './unavailable.js';

const HOUR = 60 * 60;

export const ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  userinfo: '/oauth/userinfo',
  end_session: '/oauth/logout',
  introspection: '/oauth/introspect',
  pushed_authorization_request: '/oauth/par',
} as const;

export interface ProviderDeps {
  options: AuthorizationServerOptions;
  /** every resource indicator of the service (its base URLs, and resource paths under them) */
  audiences: string[];
  keys: ProviderKeys;
  Adapter: new (name: string) => Adapter;
  /** a failure the operator should see (AuthLogger.warn) */
  warn: (line: string) => void;
  /** a client a person approved (its grant holds) or a first-party one (error-redirects.ts) */
  trustedClient: (clientId: string) => Promise<boolean>;
}

export function createProvider(issuer: string, deps: ProviderDeps): Provider {
  const { options, audiences, keys } = deps;
  const openid = options.discoveryPath === '/.well-known/openid-configuration';
  const resourceScope = options.resourceScopes.join(' ');

  const configuration: Configuration = {
    adapter: deps.Adapter,
    clients: (options.firstPartyClients ?? []).map((c) => ({
      ...c,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    })),
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'RS256',
    },
    clientAuthMethods: ['none'],
    // Never fetch a client's sector_identifier_uri: it serves pairwise subjects, and these servers
    // issue public ones only. Registration refuses the field (registration-policy.ts), but a client
    // registered before that still carries it, and oidc-provider fetched it at every load (each
    // request naming the client, after each restart): an outbound request to an address a
    // stranger once picked. Its own switch for "loaded, registered, or updated" clients.
    sectorIdentifierUriValidate: () => false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    // the resource servers check proofs with the same list (dpop.ts)
    enabledJWA: { dPoPSigningAlgValues: DPOP_ALGS },
    scopes: ['openid', ...options.oidcScopes],
    claims: openid
      ? { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] }
      : { openid: ['sub'] },
    // Secure cookies whenever the service is published over https (also behind a TLS proxy)
    cookies: {
      keys: keys.cookieKeys,
      long: { httpOnly: true, sameSite: 'lax', secure: issuer.startsWith('https:') },
      short: { httpOnly: true, sameSite: 'lax', secure: issuer.startsWith('https:') },
    },
    jwks: keys.jwks as Configuration['jwks'],
    async findAccount(_ctx, sub) {
      const account = await options.accounts.findById(sub);
      if (!account) return undefined;
      return {
        accountId: account.id,
        claims: async () => ({
          sub: account.id,
          email: account.email,
          email_verified: true,
          ...(account.displayName ? { name: account.displayName } : {}),
        }),
      };
    },
    features: {
      devInteractions: { enabled: false },
      registration: {
        enabled: true,
        initialAccessToken: false,
        issueRegistrationAccessToken: false,
      },
      // public clients: a client may revoke only its own tokens (others are silently ignored, RFC 7009)
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      introspection: { enabled: false },
      // not offered: every access token is a JWT for the service's API (resourceIndicators
      // below), and oidc-provider serves userinfo only to its opaque tokens for no resource, so
      // no token a client holds could read it. Discovery then names no userinfo_endpoint (OpenID
      // Discovery: RECOMMENDED, not required) and the ID token carries the granted claims.
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => issuer,
        // the access token is always for the service, also when `openid` is asked for
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, indicator) {
          if (!audiences.includes(indicator)) throw new errors.InvalidTarget();
          return {
            scope: resourceScope,
            audience: indicator,
            accessTokenTTL: options.accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    routes: ROUTES,
    interactions: { url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}` },
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') &&
      (options.refreshPolicy === 'always' || code.scopes.has('offline_access')),
    rotateRefreshToken: true,
    // tokens belong to the client, not to the browser session that granted them
    expiresWithSession: async () => false,
    // the JWT names its grant so a revoked grant (reuse detection, disconnect) stops its tokens
    extraTokenClaims: async (_ctx, token) =>
      token.kind === 'AccessToken' ? { grant_id: token.grantId } : undefined,
    ttl: {
      AccessToken: () => options.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      IdToken: HOUR,
      Interaction: HOUR,
      Session: 14 * 24 * HOUR,
      // sliding: each rotated refresh token lives the full period, and extends its grant
      RefreshToken: () => options.refreshTokenTtlSeconds,
      Grant: options.refreshTokenTtlSeconds,
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = renderErrorPage(String(out.error), String(out.error_description ?? ''));
    },
  };

  // an error goes to the client's redirect URI only if a person trusts the client
  const provider = createGuardedProvider(issuer, configuration, deps.trustedClient);
  // the auth router rewrites Host and X-Forwarded-* to this issuer's before any request gets here
  provider.proxy = true;
  answerUnavailableInProvider(provider, deps.warn);
  // inside it: a consume no write of the request stored is stored before the answer
  provider.use((ctx, next) => settleConsumes(ctx, next));
  // discovery lists only static scopes; clients also need the service's resource scopes
  const scopesSupported = openid
    ? ['openid', ...options.oidcScopes, ...options.resourceScopes]
    : [...options.resourceScopes, ...options.oidcScopes];
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.oidc?.route === 'discovery' && ctx.body && typeof ctx.body === 'object') {
      (ctx.body as Record<string, unknown>).scopes_supported = scopesSupported;
    }
    // A token answer's `scope` lists the access token's data scopes. One with none is the full
    // surface a request without a data scope asks for (feedback: "default (no scope) = full maker
    // surface"), so it is what the client requested and the field is left out (RFC 6749 §5.1:
    // "OPTIONAL, if identical to the scope requested"). oidc-provider said `scope: ""`, which
    // a client reads as "no scope granted".
    if (ctx.oidc?.route === 'token' && ctx.body && typeof ctx.body === 'object') {
      const answer = ctx.body as Record<string, unknown>;
      if (answer.scope === '') delete answer.scope;
    }
    // no route of the provider (GET /oauth/token, PUT /oauth/register): Koa's bare text
    // "Not Found"; every other unknown route of the service answers its JSON envelope
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = options.errorEnvelope('not found', 'not-found');
    }
  });
  return provider;
}
