/**
 * The local notes MCP server: a thin client of the notes HTTP API for an assistant on the
 * user's machine, over stdio. Its tools are generated from the service's own OpenAPI document
 * (spec: "machine-readable OpenAPI 3.1 description at /docs/json"), so it offers every
 * operation of the API — the device writes included, which the hosted server leaves out — and
 * each call is the REST request with the user's access token. It holds no data of its own.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { remoteTools } from '../mcp/remote.js';
import { createMcpServer } from '../mcp/server.js';

export const LOCAL_NOTES_INSTRUCTIONS =
  "Tools of the notes service for the signed-in user: notes, tags and devices (registering and renaming devices included). Each tool is one REST operation named by its operation id; path parameters (`id`, `tagId`), query fields and body fields are top-level arguments. A failed call answers isError with the API's `{error}` envelope.";

export interface LocalNotesOptions {
  /** the notes service, e.g. http://127.0.0.1:3001 */
  baseUrl: string;
  /** an access token of the notes service with the `notes` scope */
  accessToken: string;
  fetch?: typeof fetch;
  /** how long a call waits for the service (src/mcp/remote.ts CALL_TIMEOUT_MS by default) */
  timeoutMs?: number;
}

export function localNotesServer(options: LocalNotesOptions): Server {
  return createMcpServer(
    { name: 'notes-local', version: '1.0.0', instructions: LOCAL_NOTES_INSTRUCTIONS },
    remoteTools({
      ...options,
      openapiPath: '/docs/json',
      // NOTES_BASE_URL at the feedback board served its tools, each call then refused 401
      identity: { service: 'notes service', operationId: 'list_notes', setting: 'NOTES_BASE_URL' },
      // the token comes from the environment: only the user can give the server another
      tokenRefused:
        "the notes service refused this server's NOTES_ACCESS_TOKEN (expired after 30 days, revoked, or not a notes access token), so this call did not run and no call will. Tell the user to set NOTES_ACCESS_TOKEN to a new access token of the notes service (scope notes) in this MCP server's configuration and restart it",
    }),
  );
}
