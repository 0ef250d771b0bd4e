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
import { AuthConfigurationError } from './errors.js';
import { createIdTokenVerifier, type TrustedIssuer, type VerifiedIdToken } from './id-token.js';
import type { InteractionContext } from './interaction/context.js';
import { createEmailCodes } from './interaction/email-code.js';
import { interactionRouter } from './interaction/routes.js';
import { createUpstreamSignIn } from './interaction/upstream.js';
import { renderMailbox } from './interaction/views.js';
import { createDevMailbox } from './mail/dev-mailbox.js';
import type { MailPort, ReadableMailbox } from './mail/port.js';
import { createSmtpMail } from './mail/smtp.js';
import type { AuthorizationServerOptions } from './options.js';
import { createProvider } from './provider.js';
import { registrationLimiter } from './registration-limit.js';
import {
  type BearerError,
  PROTECTED_RESOURCE_PATH,
  type ProtectedResourceMetadata,
  protectedResourceMetadataFor,
  wwwAuthenticateFor,
} from './resource-metadata.js';
import { revocationPrecheck } from './revocation.js';
import { collectionFor, createAdapterClass, type StoredArtifact } from './storage/adapter.js';
import { loadOrCreateKeys } from './storage/keys.js';

export interface AuthorizationServer {
  router: Router;
  /** the provider of the primary issuer */
  provider: Provider;
  verifyAccessToken(token: string | undefined | null): Promise<VerifiedAccessToken>;
  /** own first-party clients' ID tokens are trusted; `extra` adds configured upstream issuers */
  verifyIdToken(
    token: string | undefined | null,
    extra?: TrustedIssuer[],
  ): Promise<VerifiedIdToken>;
  /** the trusted-issuer entries for this server's own ID tokens (first-party clients) */
  ownIdTokenIssuers: TrustedIssuer[];
  protectedResourceMetadata: ProtectedResourceMetadata;
  wwwAuthenticate(error?: BearerError, scope?: string): string;
  listConnectedApps(userId: string): Promise<ConnectedApp[]>;
  revokeConnectedApp(userId: string, clientId: string): Promise<boolean>;
  close(): Promise<void>;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export async function createAuthorizationServer(
  options: AuthorizationServerOptions,
): Promise<AuthorizationServer> {
  const issuers = [options.issuer, ...(options.altIssuers ?? [])].map(trimSlash);
  for (const issuer of issuers) {
    if (!URL.canParse(issuer)) throw new AuthConfigurationError(`issuer is not a URL: ${issuer}`);
  }
  const primary = issuers[0] as string;
  const now = options.now ?? (() => Date.now());
  const log = options.log ?? ((line: string) => console.log(line));
  const prefix = options.collectionPrefix ?? 'oauth';
  const { readStore } = options;
  const ctxStore = { readStore, prefix, now };

  const keys = await loadOrCreateKeys(readStore, `${prefix}_keys`);
  const Adapter = createAdapterClass(ctxStore);
  const providers = new Map<string, Provider>();
  for (const issuer of issuers) {
    providers.set(
      new URL(issuer).host,
      createProvider(issuer, { options, audiences: issuers, keys, Adapter }),
    );
  }
  const provider = providers.get(new URL(primary).host) as Provider;
  const pickProvider = (req: Request) => providers.get(String(req.headers.host)) ?? provider;
  const baseUrlOf = (req: Request) => pickProvider(req).issuer;

  const devMailbox: ReadableMailbox | null =
    options.mail || options.smtp
      ? null
      : createDevMailbox({ path: options.devMailboxPath ?? 'data/dev-mailbox.jsonl', log });
  const mail: MailPort =
    options.mail ?? (options.smtp ? createSmtpMail(options.smtp) : (devMailbox as ReadableMailbox));

  // one secret per deployment for HMACs (CSRF tokens, code hashes), derived from the cookie key
  const secret = createHash('sha256').update(`auth-ui:${keys.cookieKeys[0]}`).digest('base64url');
  const codes = createEmailCodes({ readStore, collection: `${prefix}_email_codes`, secret, now });
  const interactionCtx: InteractionContext = {
    pickProvider,
    accounts: options.accounts,
    mail,
    codes,
    serviceName: options.serviceName ?? new URL(primary).host,
    fullAccessWording:
      options.refreshPolicy === 'always' ? 'Act as you: everything you can do as a maker' : null,
    secret,
    log,
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

  const grants = collectionFor(ctxStore, 'Grant') as ReturnType<
    typeof collectionFor<StoredArtifact>
  >;
  const revoked = readStore.collection<RevokedJti>(`${prefix}_revoked_jti`);
  const jwks = publicJwks(keys.jwks.keys);
  const verifyAccessToken = createAccessTokenVerifier({
    issuers,
    audiences: issuers,
    jwks,
    grants,
    revoked,
    now,
    clientName: async (clientId) => (await provider.Client.find(clientId))?.clientName ?? null,
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

  router.get(PROTECTED_RESOURCE_PATH, (req, res) => {
    res.json(protectedResourceMetadataFor(baseUrlOf(req), scopesSupported, options.serviceName));
  });
  router.get(options.discoveryPath, (req, res) => {
    req.url = '/.well-known/openid-configuration';
    return handOver(req, res);
  });
  // OIDC Core §11 drops offline_access unless prompt=consent; OAuth clients (notes, MCP) never
  // send prompt, so a request for offline_access without a prompt is made an explicit consent.
  router.get('/oauth/authorize', (req, _res, next) => {
    const url = new URL(req.originalUrl, 'http://x');
    const scopes = url.searchParams.get('scope')?.split(' ') ?? [];
    if (
      scopes.includes('offline_access') &&
      !url.searchParams.has('prompt') &&
      !url.searchParams.has('request')
    ) {
      url.searchParams.set('prompt', 'consent');
      req.url = `${url.pathname}${url.search}`;
    }
    next();
  });
  router.post(
    '/oauth/register',
    registrationLimiter({
      readStore,
      collection: `${prefix}_registration_windows`,
      max: options.registrationLimit.max,
      windowSeconds: options.registrationLimit.windowSeconds,
      trustProxy: options.trustProxy ?? false,
      now,
    }),
  );
  router.post(
    '/oauth/revoke',
    ...revocationPrecheck({ verifyAccessToken, revoked, readStore, now }),
  );
  router.use(interactionRouter(interactionCtx, upstream));
  if (devMailbox) {
    router.get('/dev/mailbox', async (_req, res) => {
      res
        .set('Cache-Control', 'no-store')
        .type('html')
        .send(renderMailbox(await devMailbox.recent(50)));
    });
  }
  // not router.use('/oauth'): oidc-provider reads req.baseUrl as its mount path
  router.use((req, res, next) => (req.path.startsWith('/oauth/') ? handOver(req, res) : next()));

  const connected = createConnectedApps({ provider, grants, now });
  return {
    router,
    provider,
    verifyAccessToken,
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
    wwwAuthenticate: (error, scope) => wwwAuthenticateFor(primary, error, scope),
    listConnectedApps: connected.listConnectedApps,
    revokeConnectedApp: connected.revokeConnectedApp,
    async close() {
      // nothing holds sockets or timers: the read store belongs to the caller
      providers.clear();
    },
  };
}
