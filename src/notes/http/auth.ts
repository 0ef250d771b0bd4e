/**
 * The notes service's OAuth 2.0 authorization server (the shared auth module with the notes
 * preset: RFC 8414 discovery, scope `notes`, 30-day access tokens, 90-day refresh tokens only
 * with offline_access, 30 registrations per IP per hour) and the bearer check every /v1 route
 * runs: a token this service issued, through either host, carrying the `notes` scope.
 */
import { join, resolve } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { PermissionDenied } from '../../../commands/shared/errors.js';
import {
  type AuthorizationServer,
  createAuthorizationServer,
  notesAuthPreset,
  Unauthenticated,
  wwwAuthenticateFor,
} from '../../auth/index.js';
import { smtpFrom, upstreamFrom } from '../../auth/from-config.js';
import type { Config } from '../../config/schema.js';
import { withResponseHeaders } from '../../http/registry.js';
import type { ServiceContext } from '../../platform/service.js';
import { createNotesAccounts } from './accounts.js';
import type { NotesPrincipal } from './context.js';

export const NOTES_SCOPE = 'notes';

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
  /** WWW-Authenticate for a 401, pointing at the metadata of the host that was asked */
  challenge(req: IncomingMessage, error: unknown): string;
}

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
    ...(alt ? { altIssuers: [alt] } : {}),
    trustProxy: config.TRUST_PROXY,
    readStore: ctx.stores.readStore,
    accounts: createNotesAccounts(ctx.stores.eventStore),
    collectionPrefix: 'notes_oauth',
    serviceName: 'Notes',
    devMailboxPath: join(resolve(config.DATA_DIR), 'dev-mailbox.jsonl'),
    ...(smtp ? { smtp } : {}),
    ...(upstream ? { upstream } : {}),
    log: (line) => ctx.logger.info(line),
  });

  const hosts = new Map([primary, ...(alt ? [alt] : [])].map((base) => [new URL(base).host, base]));
  const baseFor = (req: IncomingMessage) => hosts.get(String(req.headers.host)) ?? primary;

  return {
    server,
    async authenticate(req) {
      const header = req.headers.authorization;
      if (!header) throw new Unauthenticated('missing access token', 'invalid_request');
      const match = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
      if (!match) throw new Unauthenticated('Authorization must be "Bearer <access token>"');
      const token = await server.verifyAccessToken(match[1]);
      if (!token.scopes.includes(NOTES_SCOPE)) {
        throw withResponseHeaders(
          new PermissionDenied(`the access token lacks the "${NOTES_SCOPE}" scope`),
          {
            'WWW-Authenticate': wwwAuthenticateFor(baseFor(req), 'insufficient_scope', NOTES_SCOPE),
          },
        );
      }
      return { userId: token.userId, clientId: token.clientId, scopes: token.scopes };
    },
    challenge(req, error) {
      const base = baseFor(req);
      if (!req.headers.authorization) return wwwAuthenticateFor(base);
      const code = error instanceof Unauthenticated ? error.oauthError : 'invalid_token';
      return wwwAuthenticateFor(base, code);
    },
  };
}
