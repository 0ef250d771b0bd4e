/**
 * Every configuration key, one documented line each, read from the environment. The process
 * refuses to start on a bad value (see loadConfig). No URLs configured = the embedded default:
 * one process, data in DATA_DIR, both services, projectors and workers in-process.
 * The value kinds are in values.ts, the keys bounding callers in limit-keys.ts.
 * `npm run cli -- config` prints this table.
 */
import { z } from 'zod';
import { limitKeys } from './limit-keys.js';
import {
  baseUrl,
  bool,
  count,
  MAILBOX,
  oneOf,
  origins,
  port,
  SMTP_URL_FORM,
  whole,
} from './values.js';

export const configSchema = z.object({
  DATA_DIR: z
    .string()
    .min(1)
    .default('./data')
    .describe('folder of the embedded SQLite file, secrets and the dev mailbox'),
  EVENTSTORE_URL: z
    .string()
    .regex(
      /^(kurrentdb|esdb|kdb|esdb\+discover|kurrentdb\+discover|kdb\+discover):\/\//,
      'must be a kurrentdb:// or esdb:// connection string',
    )
    .optional()
    .describe(
      'KurrentDB/EventStoreDB: a kurrentdb:// or esdb:// connection string; unset = embedded SQLite event log',
    ),
  MONGODB_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// or mongodb+srv:// URL')
    .optional()
    .describe(
      'MongoDB for read models: a mongodb:// or mongodb+srv:// URL; unset = embedded read store',
    ),
  MONGODB_DATABASE: z.string().min(1).default('feedback_notes').describe('MongoDB database name'),
  HOST: z.string().min(1).default('127.0.0.1').describe('interface the HTTP servers listen on'),
  FEEDBACK_PORT: port
    .default(3000)
    .describe('port of the feedback-board service (from 0 to 65535; 0 = any free port)'),
  NOTES_PORT: port
    .default(3001)
    .describe('port of the notes service (from 0 to 65535; 0 = any free port)'),
  OPS_PORT: port
    .optional()
    .describe(
      'projector and webhooks roles: port of their operations listener on HOST (/healthz, /readyz, /metrics; from 0 to 65535, 0 = any free port); unset = none',
    ),
  FEEDBACK_BASE_URL: baseUrl
    .optional()
    .describe('public base URL of the feedback service; default http://HOST:FEEDBACK_PORT'),
  NOTES_BASE_URL: baseUrl
    .optional()
    .describe('public base URL of the notes service; default http://HOST:NOTES_PORT'),
  NOTES_ALT_BASE_URL: baseUrl
    .optional()
    .describe('second host answering the notes API; default http://localhost:NOTES_PORT'),
  PUBLIC_BASE_URL: baseUrl
    .optional()
    .describe(
      'base URL of the public board pages, the capture endpoint and widget.js; default the feedback base URL',
    ),
  MCP_ALLOWED_ORIGINS: origins
    .optional()
    .describe(
      "browser origins (comma-separated, each an origin: scheme://host[:port]) that may call the hosted /mcp endpoints besides the service's own; any other Origin is answered 403 (DNS-rebinding protection)",
    ),
  TRUST_PROXY: bool
    .default(false)
    .describe('take client IPs from X-Forwarded-For (only behind your own proxy)'),
  APP_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      'secret for signing cursors and keying ids derived from e-mail addresses, at least 32 characters; default: generated once into DATA_DIR/secret',
    ),
  DEV_MODE: bool
    .default(false)
    .describe(
      'development mode: sign-in codes go to the dev mailbox (DATA_DIR file and /dev/mailbox, loopback clients only); ignored when SMTP_URL is set; without it, refused on a non-loopback HOST or base URL',
    ),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, hostname: /./, error: SMTP_URL_FORM })
    .regex(/^smtps?:\/\/[^/]/, SMTP_URL_FORM)
    .optional()
    .describe(
      'SMTP server for sign-in codes, an smtp:// or smtps:// URL (smtp://user:password@host:port); required unless DEV_MODE on loopback',
    ),
  MAIL_FROM: z
    .string()
    .regex(MAILBOX, 'must be one sender address: name@example.com or Board <name@example.com>')
    .default('no-reply@localhost')
    .describe(
      'sender of sign-in mails, one sender address: `name@example.com` or `Board <name@example.com>`',
    ),
  UPSTREAM_OIDC_ISSUER: baseUrl
    .optional()
    .describe(
      "upstream identity provider (e.g. https://accounts.google.com) offered on the sign-in page; it must share a verified e-mail (email_verified true), which names the account; an ID token it dates more than 30 s ahead of this server's clock (`iat`) is refused",
    ),
  UPSTREAM_OIDC_CLIENT_ID: z
    .string()
    .min(1)
    .optional()
    .describe('client id registered at the upstream identity provider'),
  UPSTREAM_OIDC_CLIENT_SECRET: z
    .string()
    .min(1)
    .optional()
    .describe('client secret at the upstream identity provider, if it requires one'),
  TRUSTED_ID_TOKEN_ISSUERS: z
    .string()
    .optional()
    .describe(
      "JSON array of {issuer, jwksUrl, audience} whose ID tokens are accepted as bearer credentials; such a token names the maker account by its e-mail, which the issuer must have verified (email_verified true), and must carry an expiry (`exp`; one without is refused) and not be dated more than 30 s ahead of this server's clock (`iat`; `exp` and `nbf` allow the same 30 s)",
    ),
  SHARED_DATA_DIR: bool
    .default(false)
    .describe(
      'several server processes may share one DATA_DIR on the embedded read store; each then keeps its own OAuth sign-ins, tokens and rate limits (a used refresh token is taken again by another process), so only behind sticky routing; false = a second server on a DATA_DIR is refused',
    ),
  EMBEDDED_POLL_MS: whole(10, 600000)
    .default(250)
    .describe(
      'embedded store: how often a running server looks for events appended by another process (the CLI) when idle; from 10 to 600000',
    ),
  MODEL_DIR: z
    .string()
    .min(1)
    .optional()
    .describe(
      "local folder with transformers.js models (Xenova/all-MiniLM-L6-v2); unset = transformers.js's own cache folder (node_modules/@xenova/transformers/.cache); no model there = bundled offline encoder",
    ),
  SEARCH_CACHE_SCOPES: count(1000000)
    .default(1000)
    .describe(
      'scopes (a workspace, a notes user) whose search indexes one process keeps in memory, per index; past it the least recently searched scope is dropped and loaded again from the read store on its next search; from 1 to 1000000',
    ),
  SEARCH_CACHE_MIB: count(1048576)
    .default(256)
    .describe(
      'MiB of vectors one process keeps in memory per search index (the scope searched last stays, however large); past it the least recently searched scopes are dropped; from 1 to 1048576',
    ),
  STALE_PROMISE_DAYS: whole(1, 3650)
    .default(30)
    .describe(
      'days without a status change after which a planned/in-progress item is a stale promise; from 1 to 3650',
    ),
  HTTP_IDLE_TIMEOUT_MS: whole(1000, 3600000)
    .default(60000)
    .describe(
      'a connection on which the client does nothing for this long is closed: it sends nothing, stops sending its request or stops reading its answer, or sends its request too slowly (time the service spends working on a request does not count); from 1000 to 3600000',
    ),
  HTTP_MAX_CONNECTIONS: count(1000000)
    .default(2000)
    .describe(
      'most connections one service process holds open at once; past it new ones are refused; from 1 to 1000000',
    ),
  PROJECTION_WAIT_MS: whole(100, 120000)
    .default(10000)
    .describe(
      'how long a write waits for its read models before answering 503; from 100 to 120000',
    ),
  PROJECTOR_LEASE_MS: whole(1000, 600000)
    .default(5000)
    .describe(
      'projector role: lease length; a second projector stands by and takes over this long after the first dies; from 1000 to 600000',
    ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool
    .default(false)
    .describe(
      'let webhooks target loopback, private, link-local and other non-public addresses, and http to loopback (local development and tests only; logged at start)',
    ),
  WEBHOOK_CONCURRENCY: whole(1, 100)
    .default(8)
    .describe('most delivery attempts in flight per webhook; from 1 to 100'),
  WEBHOOK_MAX_IN_FLIGHT: whole(1, 100000)
    .default(256)
    .describe(
      'most delivery attempts in flight in one webhook worker over all webhooks (each holds a socket and its message); past it further attempts wait their turn, neither sent nor failed; from 1 to 100000',
    ),
  LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error'])
    .default('info')
    .describe(
      'log verbosity, one of debug, info, warn, error (`info` includes one access line per request)',
    ),
  LOG_FORMAT: oneOf(['auto', 'json', 'pretty'])
    .default('auto')
    .describe(
      'one of auto, json, pretty; `json`: one JSON line per entry (pino); `pretty`: readable lines; `auto`: pretty on a terminal',
    ),
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe(
      'bearer token (at least 16 characters) that lets non-loopback clients read `/metrics` and the report of `/readyz` (others read its status alone); unset = loopback clients only (nobody when TRUST_PROXY is true: behind a proxy every client looks local)',
    ),
  ...limitKeys,
});

export type Config = z.infer<typeof configSchema>;
