/**
 * createAuthorizationServer: one auth module, configured per service (see options.ts for the
 * lifetimes and limits each service uses). Returns an Express router to mount at the service
 * root, plus the verifiers and helpers the service's API layer needs.
 */
import { createHash } from 'node:crypto';
import express, { type Request, type Router } from 'express';
import type Provider from 'oidc-provider';
import {
  type VerifiedAccessToken,
  createAccessTokenVerifier,
  publicJwks,
  type RevokedJti,
} from './access-token.js';
import { createConnectedApps, type ConnectedApp } from './connected-apps.js';
import { createDpopChecker, type Presentation } from './dpop.js';
import { AuthConfigurationError } from './errors.js';
import { createIdTokenVerifier, type TrustedIssuer, type VerifiedIdToken } from './id-token.js';
import type { InteractionContext } from './interaction/context.js';
import { createEmailCodes } from './interaction/email-code.js';
import { interactionRouter } from './interaction/routes.js';
import { createUpstreamSignIn } from './interaction/upstream.js';
import { renderMailbox } from './interaction/views.js';
import { chooseMail, isLocalRequest } from './mail/choose.js';
import type { MailPort } from './mail/port.js';
import type { AuthLogger, AuthorizationServerOptions } from './options.js';
import { createProvider } from './provider.js';
import { createSignInThrottle } from './interaction/throttle.js';
import { DEFAULT_AUTHORIZATION_LIMIT, mountAuthorizationLimits } from './authorization-limit.js';
import { clientIp, clientNetwork } from './per-ip-limit.js';
import { registrationLimiter } from './registration-limit.js';
import { createLimits } from '../limits/index.js';
import { DEFAULT_SIGN_IN_LIMITS, DEFAULT_UNUSED_CLIENT_TTL_S } from './options.js';
import {
  type BearerError,
  PROTECTED_RESOURCE_PATH,
  type ProtectedResourceMetadata,
  protectedResourceMetadataFor,
  wwwAuthenticateFor,
} from './resource-metadata.js';
import { registrationScopes } from './registration-scope.js';
import { resourceIndicators } from './resource-indicators.js';
import { registrationPolicy } from './registration-policy.js';
import { mountRequestDefaults } from './request-defaults.js';
import { revocationPrecheck } from './revocation.js';
import { unavailableHandler } from './unavailable.js';
import {
  collectionFor,
  createAdapterClass,
  hashStoredSecrets,
  type StoredArtifact,
} from './storage/adapter.js';
import { loadOrCreateKeys } from './storage/keys.js';
import { dateStoredClients } from './storage/client-lifetime.js';

export interface AuthorizationServer {
  router: Router;
  /** the provider of the primary issuer */
  provider: Provider;
  /** a DPoP-bound token is refused unless `presentation` is DPoP with a valid proof (dpop.ts) */
  verifyAccessToken(
    token: string | undefined | null,
    presentation?: Presentation,
  ): Promise<VerifiedAccessToken>;
  /**
   * the verifier at a resource path of `resourcePaths` (e.g. `/mcp`): tokens for the service or
   * for that path are accepted, tokens for another path are not
   */
  verifierAt(path: string): AuthorizationServer['verifyAccessToken'];
  /** own first-party clients' ID tokens are trusted; `extra` adds configured upstream issuers */
  verifyIdToken(
    token: string | undefined | null,
    extra?: TrustedIssuer[],
  ): Promise<VerifiedIdToken>;
  /** the trusted-issuer entries for this server's own ID tokens (first-party clients) */
  ownIdTokenIssuers: TrustedIssuer[];
  protectedResourceMetadata: ProtectedResourceMetadata;
  wwwAuthenticate(error?: BearerError, scope?: string, scheme?: 'Bearer' | 'DPoP'): string;
  listConnectedApps(userId: string): Promise<ConnectedApp[]>;
  /** where this server sends sign-in codes (the public board confirms addresses through it) */
  mail: MailPort;
  revokeConnectedApp(userId: string, clientId: string): Promise<boolean>;
  isRegisteredClient(clientId: string): Promise<boolean>;
  close(): Promise<void>;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * Rewrites the request as the provider (Koa with `proxy` on) reads it: the issuer's host and
 * scheme, and the one client IP we determined. Whatever the client sent in Host or X-Forwarded-*
 * is replaced, so it cannot steer an advertised URL.
 */
function seenAsIssuer(req: Request, issuer: string, ip: string): void {
  const url = new URL(issuer);
  req.headers.host = url.host;
  req.headers['x-forwarded-host'] = url.host;
  req.headers['x-forwarded-proto'] = url.protocol.slice(0, -1);
  req.headers['x-forwarded-for'] = ip;
}

/** without a logger: lines on the console (stderr for failures) */
const CONSOLE_LOGGER: AuthLogger = {
  info: (line) => console.log(line),
  warn: (line) => console.error(line),
};

export async function createAuthorizationServer(
  options: AuthorizationServerOptions,
): Promise<AuthorizationServer> {
  const issuers = [options.issuer, ...(options.altIssuers ?? [])].map(trimSlash);
  for (const issuer of issuers) {
    if (!URL.canParse(issuer)) throw new AuthConfigurationError(`issuer is not a URL: ${issuer}`);
  }
  const primary = issuers[0] as string;
  const now = options.now ?? (() => Date.now());
  const logger = options.logger ?? CONSOLE_LOGGER;
  /** a failure the operator should see (AuthLogger) */
  const warn = (line: string) => logger.warn(line);
  const prefix = options.collectionPrefix ?? 'oauth';
  const { readStore } = options;
  const unusedClientTtlMs = (options.unusedClientTtlSeconds ?? DEFAULT_UNUSED_CLIENT_TTL_S) * 1000;
  const ctxStore = { readStore, prefix, now, unusedClientTtlMs };

  const keys = await loadOrCreateKeys(readStore, `${prefix}_keys`);
  await hashStoredSecrets(ctxStore);
  const lifetime = { clients: collectionFor(ctxStore, 'Client'), now, unusedClientTtlMs };
  if ((await dateStoredClients(lifetime, collectionFor(ctxStore, 'Grant'))) > 0)
    await readStore.flush();
  const Adapter = createAdapterClass(ctxStore);
  const grants = collectionFor(ctxStore, 'Grant') as ReturnType<
    typeof collectionFor<StoredArtifact>
  >;
  const firstParty = new Set((options.firstPartyClients ?? []).map((c) => c.client_id));
  const trustedClient = async (clientId: string) =>
    firstParty.has(clientId) ||
    (await grants.findOne({ clientId, expiresAt: { $gt: now() } })) !== null;
  const providers = new Map<string, Provider>();
  for (const issuer of issuers) {
    providers.set(
      new URL(issuer).host,
      createProvider(issuer, {
        options,
        audiences: resourceIndicators(issuers, options.resourcePaths ?? []),
        keys,
        Adapter,
        warn,
        trustedClient,
      }),
    );
  }
  const provider = providers.get(new URL(primary).host) as Provider;
  const pickProvider = (req: Request) => providers.get(String(req.headers.host)) ?? provider;
  const baseUrlOf = (req: Request) => pickProvider(req).issuer;

  const { mail, devMailbox } = chooseMail(options, (line) => logger.info(line));
  const trustProxy = options.trustProxy ?? false;
  const limits = createLimits({ readStore, now });

  // one secret per deployment for HMACs (CSRF tokens, code hashes), derived from the cookie key
  const secret = createHash('sha256').update(`auth-ui:${keys.cookieKeys[0]}`).digest('base64url');
  const codes = createEmailCodes({ readStore, collection: `${prefix}_email_codes`, secret, now });
  const interactionCtx: InteractionContext = {
    pickProvider,
    accounts: options.accounts,
    mail,
    codes,
    throttle: createSignInThrottle({
      readStore,
      prefix,
      service: options.signInService ?? prefix,
      limits: options.signInLimits ?? DEFAULT_SIGN_IN_LIMITS,
      now,
    }),
    clientNetwork: (req) => clientNetwork(req, trustProxy),
    serviceName: options.serviceName ?? new URL(primary).host,
    fullAccessWording:
      options.refreshPolicy === 'always' ? 'Act as you: everything you can do as a maker' : null,
    secret,
    log: warn,
    knownScopes: new Set(['openid', ...options.oidcScopes, ...options.resourceScopes]),
  };
  const upstream = options.upstream
    ? createUpstreamSignIn({
        options: options.upstream,
        ctx: interactionCtx,
        readStore,
        collection: `${prefix}_upstream_states`,
        baseUrlOf,
        now,
      })
    : null;

  const revoked = readStore.collection<RevokedJti>(`${prefix}_revoked_jti`);
  const jwks = publicJwks(keys.jwks.keys);
  const verifierDeps = {
    issuers,
    jwks,
    grants,
    revoked,
    now,
    clientName: async (clientId: string) =>
      (await provider.Client.find(clientId))?.clientName ?? null,
    checkDpopProof: createDpopChecker({ readStore, collection: `${prefix}_dpop_proofs`, now }),
  };
  const verifyAccessToken = createAccessTokenVerifier({ ...verifierDeps, audiences: issuers });
  const pathVerifiers = new Map(
    (options.resourcePaths ?? []).map((path) => [
      path,
      createAccessTokenVerifier({
        ...verifierDeps,
        audiences: resourceIndicators(issuers, [path]),
      }),
    ]),
  );
  // A revocation names any token this server issued, whatever resource it was issued for: one
  // bound to /mcp (RFC 8707) is refused by the service-wide verifier and was never revoked.
  const revocationVerifier = createAccessTokenVerifier({
    ...verifierDeps,
    audiences: [...issuers, ...resourceIndicators(issuers, options.resourcePaths ?? [])],
  });
  const firstPartyIds = (options.firstPartyClients ?? []).map((c) => c.client_id);
  const ownIdTokenIssuers: TrustedIssuer[] = firstPartyIds.length
    ? issuers.map((issuer) => ({ issuer, jwks, audience: firstPartyIds }))
    : [];
  const ownIdTokens = createIdTokenVerifier({ trustedIssuers: ownIdTokenIssuers, now });
  const extraVerifiers = new Map<string, ReturnType<typeof createIdTokenVerifier>>();

  const scopesSupported = [...options.resourceScopes, ...options.oidcScopes];
  const router = express.Router();
  // Koa composes its middleware in callback(): do it once per provider, not per request
  const handlers = new Map([...providers.values()].map((p) => [p, p.callback()]));
  const handOver = (req: Request, res: express.Response) =>
    (handlers.get(pickProvider(req)) as ReturnType<Provider['callback']>)(req, res);

  // Everything oidc-provider builds from the request (discovery URLs, redirects, DPoP htu, cookie
  // Secure flag) comes from the configured issuer, never from Host or X-Forwarded-* (issue 10 item 6).
  router.use(
    ['/oauth', options.discoveryPath, '/.well-known/openid-configuration'],
    (req, _res, next) => {
      seenAsIssuer(req, pickProvider(req).issuer, clientIp(req, trustProxy));
      next();
    },
  );
  router.get(PROTECTED_RESOURCE_PATH, (req, res) => {
    res.json(protectedResourceMetadataFor(baseUrlOf(req), scopesSupported, options.serviceName));
  });
  router.get(options.discoveryPath, (req, res) => {
    req.url = '/.well-known/openid-configuration';
    return handOver(req, res);
  });
  mountRequestDefaults(router, options);
  mountAuthorizationLimits(router, {
    limits,
    name: `${prefix}:authorizations-ip`,
    ...(options.authorizationLimit ?? DEFAULT_AUTHORIZATION_LIMIT),
    trustProxy,
  });
  router.post(
    '/oauth/register',
    registrationLimiter({
      limits,
      name: `${prefix}:registrations-ip`,
      max: options.registrationLimit.max,
      windowSeconds: options.registrationLimit.windowSeconds,
      trustProxy,
    }),
    ...registrationPolicy(options.serviceName ?? new URL(primary).host),
  );
  router.post('/oauth/register', ...registrationScopes(options.resourceScopes));
  router.post(
    '/oauth/revoke',
    ...revocationPrecheck({ verifyAccessToken: revocationVerifier, revoked, readStore, now }),
  );
  router.use(interactionRouter(interactionCtx, upstream));
  if (devMailbox) {
    // development mode only (chooseMail), and only for a browser on this machine
    router.get('/dev/mailbox', async (req, res, next) => {
      if (!isLocalRequest(req)) return next();
      res
        .set('Cache-Control', 'no-store')
        .type('html')
        .send(renderMailbox(await devMailbox.recent(50)));
    });
  }
  // not router.use('/oauth'): oidc-provider reads req.baseUrl as its mount path
  router.use((req, res, next) => (req.path.startsWith('/oauth/') ? handOver(req, res) : next()));
  router.use(unavailableHandler(warn));

  const connected = createConnectedApps({ provider, grants, now });
  return {
    router,
    provider,
    mail,
    verifyAccessToken,
    verifierAt(path) {
      const verifier = pathVerifiers.get(path);
      if (!verifier) throw new AuthConfigurationError(`${path} is not one of resourcePaths`);
      return verifier;
    },
    async verifyIdToken(token, extra = []) {
      if (extra.length === 0) return ownIdTokens(token);
      const key = JSON.stringify(extra);
      let verifier = extraVerifiers.get(key);
      if (!verifier) {
        verifier = createIdTokenVerifier({ trustedIssuers: [...ownIdTokenIssuers, ...extra], now });
        extraVerifiers.set(key, verifier);
      }
      return verifier(token);
    },
    ownIdTokenIssuers,
    protectedResourceMetadata: protectedResourceMetadataFor(
      primary,
      scopesSupported,
      options.serviceName,
    ),
    wwwAuthenticate: (error, scope, scheme) => wwwAuthenticateFor(primary, error, scope, scheme),
    listConnectedApps: connected.listConnectedApps,
    revokeConnectedApp: connected.revokeConnectedApp,
    isRegisteredClient: connected.isRegisteredClient,
    async close() {
      // nothing holds sockets or timers: the read store belongs to the caller
      providers.clear();
    },
  };
}
