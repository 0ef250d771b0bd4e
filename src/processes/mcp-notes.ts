/**
 * `npm run -s mcp:notes` / `notes-mcp`: the local notes MCP server on stdin/stdout. Configured
 * from the environment: NOTES_BASE_URL (default http://127.0.0.1:3001) and NOTES_ACCESS_TOKEN
 * (an access token of the notes service with the `notes` scope), NOTES_MCP_TIMEOUT_MS (how long
 * a call waits for the service, default 60 s). Stdout carries only the MCP
 * messages; anything for a human goes to stderr.
 */
import { refuseMalformedRequests } from '../mcp/message-check.js';
import { LineStdioTransport } from '../mcp/stdio-transport.js';
import { z } from 'zod';
import { localNotesServer } from '../notes/mcp-local.js';
import { CALL_TIMEOUT_MS } from '../mcp/remote.js';

const Env = z.object({
  NOTES_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .default('http://127.0.0.1:3001')
    .meta({ description: 'base URL of the notes service' }),
  NOTES_ACCESS_TOKEN: z
    .string({ error: 'NOTES_ACCESS_TOKEN is required: an access token of the notes service' })
    .min(1, 'NOTES_ACCESS_TOKEN must not be empty')
    .meta({ description: 'access token (scope notes) the tools call the API with' }),
  NOTES_MCP_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(CALL_TIMEOUT_MS)
    .meta({ description: 'how long a call waits for the service before answering 504' }),
});

const parsed = Env.safeParse(process.env);
if (!parsed.success) {
  for (const issue of parsed.error.issues) {
    process.stderr.write(`notes-mcp: ${String(issue.path[0])}: ${issue.message}\n`);
  }
  process.exit(1);
}

const server = localNotesServer({
  baseUrl: parsed.data.NOTES_BASE_URL,
  accessToken: parsed.data.NOTES_ACCESS_TOKEN,
  timeoutMs: parsed.data.NOTES_MCP_TIMEOUT_MS,
});
// every line answered, a too-large one too (stdio-transport.ts says what the SDK's did)
const transport = new LineStdioTransport();
await server.connect(transport);
refuseMalformedRequests(transport);
process.stderr.write(
  `notes-mcp: serving the notes API at ${parsed.data.NOTES_BASE_URL} over stdio\n`,
);
