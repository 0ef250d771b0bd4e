/**
 * The notes service's OAuth 2.0 authorization server (the shared auth module with the notes
 * preset: RFC 8414 discovery, scope `notes`, 30-day access tokens, 90-day refresh tokens only
 * with offline_access, 30 registrations per IP per hour) and the bearer check every /v1 route
 * runs: a token this service issued, through either host, carrying the `notes` scope.
 */
import { join, resolve } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { PermissionDenied } from '../../commands/shared/errors.js';
import {
  type AuthorizationServer,
  createAuthorizationServer,
  endpointChallenge,
  notesAuthPreset,
  type Presentation,
  presentationOf,
  Unauthenticated,
  wwwAuthenticateFor,
} from '../auth/index.js';
import { signInLimitsFrom, smtpFrom, upstreamFrom } from '../auth/from-config.js';
import type { Config } from '../config/schema.js';
import { withResponseHeaders } from '../http/registry.js';
import { MCP_PATH } from '../mcp/http.js';
import type { ServiceContext } from '../platform/service.js';
import { createNotesAccounts, NOTES_USER_ID_PURPOSE } from './accounts.js';
import { idKeyFor } from '../platform/id-keys.js';
import type { NotesPrincipal } from './http/types.js';

export const NOTES_SCOPE = 'notes';
/** the notes authorization server's collections in the read store: `notes_oauth_<Model>` */
export const NOTES_OAUTH_PREFIX = 'notes_oauth';

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Base URLs the service answers on: the configured one first, then the second host. */
export function notesBaseUrls(config: Config, listening: { port: number; baseUrl: string }) {
  const primary = trimSlash(listening.baseUrl);
  const alt = trimSlash(config.NOTES_ALT_BASE_URL ?? `http://localhost:${listening.port}`);
  return { primary, alt: alt === primary ? null : alt };
}

export interface NotesAuth {
  server: AuthorizationServer;
  authenticate(req: IncomingMessage): Promise<NotesPrincipal>;
  /**
   * the same check again before the request acts (src/http/steps/input.ts
   * recheckCredential): the grant and the deny-list live, the DPoP proof not presented twice
   */
  recheck(req: IncomingMessage): Promise<NotesPrincipal>;
  /** WWW-Authenticate for a 401, pointing at the metadata of the host that was asked */
  challenge(req: IncomingMessage, error: unknown): string;
  /** the same check at the hosted MCP endpoint: a token for the service or for `{base}/mcp` */
  mcpAuthenticate(req: IncomingMessage): Promise<NotesPrincipal>;
  /** `recheck` at the hosted MCP endpoint, before each tool call */
  mcpRecheck(req: IncomingMessage): Promise<NotesPrincipal>;
  /** the base URL of the host that was asked */
  baseFor(req: IncomingMessage): string;
  /** the origins of the hosts that answer the notes API (NOTES_BASE_URL, NOTES_ALT_BASE_URL) */
  origins: readonly string[];
}

type BearerError = 'invalid_token' | 'invalid_request' | 'insufficient_scope';

export async function createNotesAuth(
  ctx: ServiceContext,
  listening: { port: number; baseUrl: string },
): Promise<NotesAuth> {
  const { config } = ctx;
  const { primary, alt } = notesBaseUrls(config, listening);
  const smtp = smtpFrom(config);
  const upstream = upstreamFrom(config);
  const server = await createAuthorizationServer({
    ...notesAuthPreset,
    issuer: primary,
    // the hosted MCP server is a resource of its own (RFC 8707): tokens can be issued for it
    resourcePaths: [MCP_PATH],
    ...(alt ? { altIssuers: [alt] } : {}),
    trustProxy: config.TRUST_PROXY,
    readStore: ctx.stores.readStore,
    accounts: createNotesAccounts(
      ctx.stores.eventStore,
      idKeyFor(ctx.secret, NOTES_USER_ID_PURPOSE),
    ),
    collectionPrefix: NOTES_OAUTH_PREFIX,
    serviceName: 'Notes',
    // the dev mailbox only in explicit development mode (src/config/mail-mode.ts)
    ...(smtp
      ? { smtp }
      : config.DEV_MODE
        ? { devMailboxPath: join(resolve(config.DATA_DIR), 'dev-mailbox.jsonl') }
        : {}),
    registrationLimit: {
      max: config.NOTES_REGISTRATIONS_PER_IP,
      windowSeconds: config.NOTES_REGISTRATION_WINDOW_MINUTES * 60,
    },
    unusedClientTtlSeconds: config.OAUTH_UNUSED_CLIENT_HOURS * 60 * 60,
    authorizationLimit: {
      max: config.AUTHORIZATION_REQUESTS_PER_IP,
      windowSeconds: config.AUTHORIZATION_WINDOW_MINUTES * 60,
    },
    signInLimits: signInLimitsFrom(config),
    ...(upstream ? { upstream } : {}),
    logger: ctx.logger,
  });

  const hosts = new Map([primary, ...(alt ? [alt] : [])].map((base) => [new URL(base).host, base]));
  const baseFor = (req: IncomingMessage) => hosts.get(String(req.headers.host)) ?? primary;

  /** The bearer check of one resource: its verifier, and the challenge naming its metadata. */
  const bearerCheck =
    (
      verify: AuthorizationServer['verifyAccessToken'],
      challengeAt: (base: string, error: BearerError, scope: string) => string,
    ) =>
    async (req: IncomingMessage, again = false): Promise<NotesPrincipal> => {
      const header = req.headers.authorization;
      if (!header) throw new Unauthenticated('missing access token', 'invalid_request');
      // RFC 9449: a DPoP-bound token comes as `DPoP <token>` with a proof naming this request
      const match = /^(Bearer|DPoP)[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
      if (!match) {
        throw new Unauthenticated(
          'Authorization must be "Bearer <access token>" or "DPoP <access token>"',
        );
      }
      const scheme = (match[1] as string).toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
      // checked again: the proof was verified as the request arrived, and is used once
      const presentation: Presentation =
        again && scheme === 'DPoP'
          ? { scheme: 'revocation' }
          : presentationOf(req, scheme, baseFor(req));
      const token = await verify(match[2], presentation);
      if (!token.scopes.includes(NOTES_SCOPE)) {
        throw withResponseHeaders(
          new PermissionDenied(`the access token lacks the "${NOTES_SCOPE}" scope`),
          { 'WWW-Authenticate': challengeAt(baseFor(req), 'insufficient_scope', NOTES_SCOPE) },
        );
      }
      return { userId: token.userId, clientId: token.clientId, scopes: token.scopes };
    };

  const restCheck = bearerCheck(server.verifyAccessToken, wwwAuthenticateFor);
  const mcpCheck = bearerCheck(server.verifierAt(MCP_PATH), (base, error, scope) =>
    endpointChallenge({ base, path: MCP_PATH, error, scope }),
  );
  return {
    server,
    baseFor,
    origins: [...hosts.values()].map((base) => new URL(base).origin),
    authenticate: (req) => restCheck(req),
    recheck: (req) => restCheck(req, true),
    mcpAuthenticate: (req) => mcpCheck(req),
    mcpRecheck: (req) => mcpCheck(req, true),
    challenge(req, error) {
      const base = baseFor(req);
      if (!req.headers.authorization) return wwwAuthenticateFor(base);
      if (!(error instanceof Unauthenticated)) return wwwAuthenticateFor(base, 'invalid_token');
      return wwwAuthenticateFor(base, error.oauthError, undefined, error.scheme);
    },
  };
}
