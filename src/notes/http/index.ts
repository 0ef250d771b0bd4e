/**
 * The notes service's HTTP surface from its operation registry: every route, the OpenAPI 3.1
 * document at /docs/json and the interactive reference at /docs, all with the `{error}` envelope.
 */
import type { IncomingMessage } from 'node:http';
import { createServiceHttp, notesEnvelope, type ServiceHttp } from '../../http/registry.js';
import type { Logger } from '../../platform/logger.js';
import type { NotesHttpDeps, NotesPrincipal, NotesTypes } from './context.js';
import { deviceOperations } from './device-ops.js';
import { noteOperations } from './note-ops.js';
import { noteTagOperations } from './note-tag-ops.js';
import { syncOperations } from './sync-ops.js';
import { tagOperations } from './tag-ops.js';

export const NOTES_OPENAPI_PATH = '/docs/json';
export const NOTES_DOCS_PATH = '/docs';

export interface NotesHttpOptions {
  authenticate(req: IncomingMessage): Promise<NotesPrincipal>;
  challenge(req: IncomingMessage, error: unknown): string;
  /** base URLs for the OpenAPI `servers` list (primary first) */
  servers: string[];
  /** the authorization server's base, for the OAuth security scheme */
  issuer: string;
  logger: Logger;
  validateResponses?: boolean;
}

const DESCRIPTION = `A user's notes, tags and devices. Every /v1 route needs \`Authorization: Bearer <access token>\` from this service's OAuth 2.0 server (authorization code + PKCE, scope \`notes\`; add \`offline_access\` for a refresh token). Discovery: \`/.well-known/oauth-authorization-server\`. Access is strictly per user: another user's note, tag or device answers exactly like a missing one (404). Errors are \`{"error": "<message>"}\` with the matching status. Writes accept \`Idempotency-Key\`; note, tag and device reads carry an \`ETag\` and their writes honour \`If-Match\` (412 on a lost update).`;

export function createNotesHttp(
  deps: NotesHttpDeps,
  options: NotesHttpOptions,
): ServiceHttp<NotesTypes> {
  const operations = [
    ...noteOperations(deps),
    ...noteTagOperations(deps),
    ...tagOperations(deps),
    ...deviceOperations(deps),
    ...syncOperations(deps),
  ];
  return createServiceHttp<NotesTypes>({
    title: 'Notes',
    version: '1.0.0',
    description: DESCRIPTION,
    operations,
    envelope: notesEnvelope(),
    authenticate: options.authenticate,
    challenge: options.challenge,
    waitFor: deps.waitFor,
    openapiPath: NOTES_OPENAPI_PATH,
    docsPath: NOTES_DOCS_PATH,
    servers: options.servers.map((url) => ({ url })),
    securitySchemes: {
      oauth2: {
        type: 'oauth2',
        flows: {
          authorizationCode: {
            authorizationUrl: `${options.issuer}/oauth/authorize`,
            tokenUrl: `${options.issuer}/oauth/token`,
            refreshUrl: `${options.issuer}/oauth/token`,
            scopes: {
              notes: 'read and write your notes, tags and devices',
              offline_access: 'stay connected: get a refresh token',
            },
          },
        },
      },
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    },
    security: [{ oauth2: ['notes'] }, { bearerAuth: [] }],
    bodyLimit: '1mb',
    validateResponses: options.validateResponses,
    logger: {
      error: (message, { error, ...fields }) =>
        options.logger.error(message, {
          ...fields,
          error: error instanceof Error ? { message: error.message, stack: error.stack } : error,
        }),
    },
  });
}
