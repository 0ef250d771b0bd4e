/**
 * Options of one authorization server instance (one per service). The figures the services use:
 *
 * feedback (refreshPolicy 'always'):
 *   access token  1 hour (JWT, audience = the service base URL)
 *   refresh token 90 days, issued on every code exchange, rotated on every use; each rotated token
 *                 again lives 90 days (sliding) and extends its grant, so a client that refreshes at
 *                 least monthly never meets the login page again. Reuse of a rotated token revokes the
 *                 whole grant (RFC 9700 §4.14.2).
 * notes (refreshPolicy 'offline_access-only'):
 *   access token 30 days, refresh token 90 days (sliding on rotation), only with `offline_access`.
 * both:
 *   authorization code 60 s, interaction 1 h, browser session 14 days, e-mail code 10 min / 5 tries.
 *   sign-in throttles (issue 10; DEFAULT_SIGN_IN_LIMITS, configurable): 5 codes per address and 20
 *   per client IP per 15 min; 10 wrong codes per address and 30 per IP per hour, then a lockout
 *   of 15 min that doubles with each repeat up to 24 h and is forgotten after a quiet day.
 *   registration: sliding window per client IP; feedback 20 per 10 min, notes 30 per hour (issue 6).
 *   registered client: kept 24 h while nobody has approved it, then until 30 days after its last grant
 *   (storage/client-lifetime.ts); what its registration may store is bounded (registration-bounds.ts).
 *   Client IP = the socket address; with `trustProxy` the right-most X-Forwarded-For entry (the
 *   address the nearest proxy saw), which a client cannot forge through a proxy that appends.
 */
import type { RequestIds } from '../http/respond.js';
import type { LockoutPolicy } from '../limits/index.js';
import type { ReadStore } from '../readstore/types.js';
import type { MailPort } from './mail/port.js';

export type RefreshPolicy = 'always' | 'offline_access-only';

export interface AccountsPort {
  /** `request`: the sign-in request's correlation ids, which a new account's event carries */
  findOrCreateByEmail(
    email: string,
    profile: { displayName?: string | null },
    request: RequestIds,
  ): Promise<{ id: string }>;
  findById(id: string): Promise<{ id: string; email: string; displayName: string | null } | null>;
}

export interface UpstreamIdpOptions {
  /** shown on the button: "Sign in with <name>" */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** extra scopes beyond `openid email profile` */
  scopes?: string[];
  /** allow http:// issuers (tests, local IdPs) */
  allowInsecure?: boolean;
}

export interface SmtpOptions {
  host: string;
  port: number;
  secure?: boolean;
  user?: string;
  pass?: string;
  from: string;
}

export interface FirstPartyClient {
  client_id: string;
  redirect_uris: string[];
  client_name?: string;
}

/** Figures of the sign-in throttles (interaction/throttle.ts). */
export interface SignInLimits {
  codesPerAddress: number;
  codesPerIp: number;
  codeWindowSeconds: number;
  /** codes sent to one address per 24 hours, all of one service's sign-in pages together */
  codesPerAddressPerDay: number;
  wrongCodesPerAddress: number;
  wrongCodesPerIp: number;
  wrongCodeWindowSeconds: number;
  lockout: LockoutPolicy;
}

const HOUR_S = 60 * 60;

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  codesPerAddress: 5,
  codesPerIp: 20,
  codeWindowSeconds: 15 * 60,
  codesPerAddressPerDay: 20,
  wrongCodesPerAddress: 10,
  wrongCodesPerIp: 30,
  wrongCodeWindowSeconds: HOUR_S,
  lockout: {
    baseSeconds: 15 * 60,
    factor: 2,
    maxSeconds: 24 * HOUR_S,
    forgetAfterSeconds: 24 * HOUR_S,
  },
};

/** A registered client nobody approves is gone after a day (storage/client-lifetime.ts). */
export const DEFAULT_UNUSED_CLIENT_TTL_S = 24 * HOUR_S;

/** the service's error body for a path no OAuth route serves (provider.ts: 404) */
export type ErrorEnvelope = (message: string, code: 'not-found') => Record<string, string>;

export interface AuthorizationServerOptions {
  /** the service base URL; also the issuer and the access-token audience */
  issuer: string;
  /** further base URLs the same service answers on; each gets its own issuer, tokens work on all */
  altIssuers?: string[];
  /**
   * paths under each base URL that are resources of their own (RFC 8707), e.g. `/mcp`: a client
   * may ask for a token whose audience is `{base}{path}` (resource-indicators.ts)
   */
  resourcePaths?: string[];
  /** where discovery is served: OIDC for feedback, RFC 8414 for notes */
  discoveryPath: '/.well-known/openid-configuration' | '/.well-known/oauth-authorization-server';
  /** resource scopes (e.g. `service.public`, `notes`); openid/profile/email/offline_access are added as asked */
  resourceScopes: string[];
  /** scope of an authorization request that names none (feedback: the full maker surface) */
  defaultScope: string;
  /** OIDC scopes to offer besides `openid` (feedback: profile, email, offline_access; notes: offline_access) */
  oidcScopes: string[];
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  refreshPolicy: RefreshPolicy;
  registrationLimit: { max: number; windowSeconds: number };
  /** how long a registered client nobody has approved is kept; default DEFAULT_UNUSED_CLIENT_TTL_S */
  unusedClientTtlSeconds?: number;
  /** authorization requests per client IP (authorization-limit.ts); default 60 per 10 min */
  authorizationLimit?: { max: number; windowSeconds: number };
  /** sign-in throttles; default DEFAULT_SIGN_IN_LIMITS */
  signInLimits?: SignInLimits;
  /**
   * the name the daily codes per address count under, shared with the service's other sign-in
   * pages (feedback: `feedback`, with the board's identity page); default `collectionPrefix`
   */
  signInService?: string;
  /** the body of a JSON refusal outside OAuth's own (an unknown /oauth route) */
  errorEnvelope: ErrorEnvelope;
  /** take the client IP from X-Forwarded-For (right-most entry); off by default */
  trustProxy?: boolean;
  readStore: ReadStore;
  accounts: AccountsPort;
  /** mail port for sign-in codes; defaults to the dev mailbox at `devMailboxPath` */
  mail?: MailPort;
  devMailboxPath?: string;
  smtp?: SmtpOptions;
  upstream?: UpstreamIdpOptions;
  /** statically known first-party clients (their ID tokens are trusted by verifyIdToken) */
  firstPartyClients?: FirstPartyClient[];
  /** prefix of the collections this instance keeps in the read store, e.g. `feedback_oauth` */
  collectionPrefix?: string;
  /** service name shown on the sign-in pages */
  serviceName?: string;
  /** clock in ms; oidc-provider itself reads Date.now, so tests fake that */
  now?: () => number;
  /** where the server's notices (info) and failures the operator should see (warn) go */
  logger?: AuthLogger;
}

/**
 * The auth server's log: `warn` for a failure (a mail server refusing a sign-in code, a store
 * refusing a write, an upstream answer refused), `info` for a notice (a dev-mailbox message).
 */
export interface AuthLogger {
  info(line: string): void;
  warn(line: string): void;
}
