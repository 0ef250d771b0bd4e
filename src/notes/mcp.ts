/**
 * The notes service's hosted MCP server at `/mcp` on both hosts: a tool for every notes and
 * tags operation and, of the device operations, only list_devices — the operations whose
 * `meta.hostedMcp` is not false (src/notes/http/types.ts). Each request carries a notes access
 * token (for the service or for the endpoint, with the `notes` scope) and every tool runs as
 * the REST operation does for that user: another user's note answers like a missing one.
 */
import type { Router } from 'express';
import { endpointChallenge, endpointResourceMetadata, Unauthenticated } from '../auth/index.js';
import { type HttpLogger, notesEnvelope, type ServiceHttp } from '../http/registry.js';
import { hostedTools } from '../mcp/hosted.js';
import { MCP_PATH, mcpEndpoint } from '../mcp/http.js';
import { NOTES_SCOPE, type NotesAuth } from './auth.js';
import type { NotesPrincipal, NotesTypes } from './http/types.js';

export const NOTES_MCP_INSTRUCTIONS =
  "Tools of the notes service: the user's notes and tags, and the list of their devices. Each tool is one REST operation named by its operation id; path parameters (`id`, `tagId`), query fields and body fields are top-level arguments. A failed call answers isError with the API's `{error}` envelope.";

export function notesMcp(deps: {
  http: ServiceHttp<NotesTypes>;
  auth: NotesAuth;
  /** MCP_ALLOWED_ORIGINS: browser origins allowed beside the service's own */
  allowedOrigins?: readonly string[];
  logger: HttpLogger;
}): Router {
  const { auth } = deps;
  const envelope = notesEnvelope();
  const tools = hostedTools<NotesTypes>({
    http: deps.http,
    exposes: (op) => op.meta.hostedMcp !== false,
    envelope,
    logger: deps.logger,
  });
  return mcpEndpoint<NotesPrincipal>({
    info: { name: 'notes', version: '1.0.0', instructions: NOTES_MCP_INSTRUCTIONS },
    authenticate: auth.mcpAuthenticate,
    recheck: (req) => auth.mcpRecheck(req),
    challenge: (req, error) =>
      endpointChallenge({
        base: auth.baseFor(req),
        path: MCP_PATH,
        ...(!req.headers.authorization
          ? {}
          : error instanceof Unauthenticated
            ? { error: error.oauthError, scheme: error.scheme }
            : { error: 'invalid_token' }),
      }),
    resourceMetadata: (req) =>
      endpointResourceMetadata({
        base: auth.baseFor(req),
        path: MCP_PATH,
        scopes: [NOTES_SCOPE, 'offline_access'],
        name: 'Notes MCP server',
      }),
    catalogFor: tools.catalogFor,
    toolNames: new Set(tools.tools.map((t) => t.tool.name)),
    describeCaller: (principal) => `${principal.userId} client:${principal.clientId}`,
    allowedOrigins: [...auth.origins, ...(deps.allowedOrigins ?? [])],
    envelope,
    logger: deps.logger,
  });
}
