/**
 * Every configuration key, one documented line each, read from the environment. The process
 * refuses to start on a bad value (see loadConfig). No URLs configured = the embedded default:
 * one process, data in DATA_DIR, both services, projectors and workers in-process.
 * `npm run cli -- config` prints this table.
 */
import { z } from 'zod';

/**
 * A whole number written in plain decimal digits. Number() would also read `0x10`, `1e3` or
 * ` 8 `, so FEEDBACK_PORT=0x10 listened on port 16; such values are refused instead.
 */
const whole = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number in decimal digits')
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, `must be from ${min} to ${max}`)
        .max(max, `must be from ${min} to ${max}`),
    );
const port = whole(0, 65535);
/** one of a few words; zod's own message quotes them as a TypeScript union */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });
const bool = oneOf(['true', 'false', '1', '0', 'yes', 'no']).transform(
  (v) => v === 'true' || v === '1' || v === 'yes',
);
const url = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });
/**
 * A base URL is an OAuth issuer (RFC 8414 §2: no query, no fragment) or the start of the links
 * a service writes (`<base>/v1/…`); with either the start once failed on an assertion of the
 * OAuth server that named no key.
 */
const baseUrl = url.refine(
  (value) => !/[?#]/.test(value),
  'must be an http:// or https:// URL without a query (?) or fragment (#)',
);
/** comma-separated http(s) origins: scheme://host[:port], no path */
const origins = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      url.refine(
        (u) => URL.canParse(u) && new URL(u).origin === u,
        'each must be an origin: scheme://host[:port]',
      ),
    ),
  );
const count = (max: number) => whole(1, max);
const SMTP_URL_FORM = 'must be an smtp:// or smtps:// URL (smtp://user:password@host:port)';
/** one mailbox, bare or with a display name; no line breaks (a header), no second address */
const MAILBOX = /^(?:[^\r\n<>,]*<[^\s<>@,]+@[^\s<>@,]+>|[^\s<>@,]+@[^\s<>@,]+)$/;

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
    .describe('KurrentDB/EventStoreDB connection string; unset = embedded SQLite event log'),
  MONGODB_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// or mongodb+srv:// URL')
    .optional()
    .describe('MongoDB connection string for read models; unset = embedded read store'),
  MONGODB_DATABASE: z.string().min(1).default('feedback_notes').describe('MongoDB database name'),
  HOST: z.string().min(1).default('127.0.0.1').describe('interface the HTTP servers listen on'),
  FEEDBACK_PORT: port
    .default(3000)
    .describe('port of the feedback-board service (0 = any free port)'),
  NOTES_PORT: port.default(3001).describe('port of the notes service (0 = any free port)'),
  OPS_PORT: port
    .optional()
    .describe(
      'projector and webhooks roles: port of their operations listener on HOST (/healthz, /readyz, /metrics; 0 = any free port); unset = none',
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
      "browser origins (comma-separated) that may call the hosted /mcp endpoints besides the service's own; any other Origin is answered 403 (DNS-rebinding protection)",
    ),
  TRUST_PROXY: bool
    .default(false)
    .describe('take client IPs from X-Forwarded-For (only behind your own proxy)'),
  APP_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      'secret for signing cursors and keying ids derived from e-mail addresses; default: generated once into DATA_DIR/secret',
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
      'SMTP server for sign-in codes (smtp:// or smtps://, credentials in the URL); required unless DEV_MODE on loopback',
    ),
  MAIL_FROM: z
    .string()
    .regex(MAILBOX, 'must be one sender address: name@example.com or Board <name@example.com>')
    .default('no-reply@localhost')
    .describe('sender address of sign-in mails'),
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
  SIGNIN_CODES_PER_ADDRESS: count(1000)
    .default(5)
    .describe('sign-in codes sent to one e-mail address per SIGNIN_CODE_WINDOW_MINUTES (sliding)'),
  SIGNIN_CODES_PER_IP: count(10000)
    .default(20)
    .describe(
      'sign-in codes requested from one client IP per SIGNIN_CODE_WINDOW_MINUTES (sliding)',
    ),
  SIGNIN_CODE_WINDOW_MINUTES: count(24 * 60)
    .default(15)
    .describe('window of the two sign-in code limits above'),
  SIGNIN_WRONG_CODES_PER_ADDRESS: count(1000)
    .default(10)
    .describe(
      'wrong sign-in codes for one address per SIGNIN_WRONG_CODE_WINDOW_MINUTES before a lockout',
    ),
  SIGNIN_WRONG_CODES_PER_IP: count(10000)
    .default(30)
    .describe(
      'wrong sign-in codes from one client IP per SIGNIN_WRONG_CODE_WINDOW_MINUTES before a lockout',
    ),
  SIGNIN_WRONG_CODE_WINDOW_MINUTES: count(7 * 24 * 60)
    .default(60)
    .describe('window of the two wrong-code limits above'),
  SIGNIN_LOCKOUT_MINUTES: count(7 * 24 * 60)
    .default(15)
    .describe(
      'first lockout after too many wrong codes (no code sent or accepted); each further one doubles',
    ),
  SIGNIN_LOCKOUT_MAX_HOURS: count(30 * 24)
    .default(24)
    .describe('longest lockout; a key without a lockout for this long starts again at the first'),
  FEEDBACK_REGISTRATIONS_PER_IP: count(100000)
    .default(20)
    .describe(
      'feedback OAuth client registrations per client IP per FEEDBACK_REGISTRATION_WINDOW_MINUTES (sliding)',
    ),
  FEEDBACK_REGISTRATION_WINDOW_MINUTES: count(7 * 24 * 60)
    .default(10)
    .describe('window of the feedback registration limit'),
  NOTES_REGISTRATIONS_PER_IP: count(100000)
    .default(30)
    .describe(
      'notes OAuth client registrations per client IP per NOTES_REGISTRATION_WINDOW_MINUTES (spec: 30 per hour)',
    ),
  NOTES_REGISTRATION_WINDOW_MINUTES: count(7 * 24 * 60)
    .default(60)
    .describe('window of the notes registration limit'),
  OAUTH_UNUSED_CLIENT_HOURS: count(30 * 24)
    .default(24)
    .describe(
      'hours a dynamically registered OAuth client is kept while nobody has approved it (no grant); an approved client is kept until 30 days after its last grant ends',
    ),
  AUTHORIZATION_REQUESTS_PER_IP: count(1000000)
    .default(60)
    .describe(
      'OAuth authorization requests (/oauth/authorize and /oauth/par together) per client IP per AUTHORIZATION_WINDOW_MINUTES (sliding)',
    ),
  AUTHORIZATION_WINDOW_MINUTES: count(7 * 24 * 60)
    .default(10)
    .describe('window of the authorization request limit'),
  SHARED_DATA_DIR: bool
    .default(false)
    .describe(
      'several server processes may share one DATA_DIR on the embedded read store; each then keeps its own OAuth sign-ins, tokens and rate limits (a used refresh token is taken again by another process), so only behind sticky routing; false = a second server on a DATA_DIR is refused',
    ),
  EMBEDDED_POLL_MS: whole(10, 600000)
    .default(250)
    .describe(
      'embedded store: how often a running server looks for events appended by another process (the CLI) when idle',
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
      'scopes (a workspace, a notes user) whose search indexes one process keeps in memory, per index; past it the least recently searched scope is dropped and loaded again from the read store on its next search',
    ),
  SEARCH_CACHE_MIB: count(1048576)
    .default(256)
    .describe(
      'MiB of vectors one process keeps in memory per search index (the scope searched last stays, however large); past it the least recently searched scopes are dropped',
    ),
  STALE_PROMISE_DAYS: whole(1, 3650)
    .default(30)
    .describe(
      'days without a status change after which a planned/in-progress item is a stale promise',
    ),
  SEARCHES_PER_CALLER_BURST: count(100000)
    .default(30)
    .describe(
      'searches one caller (account, token or app) may send at once: search_items, search_people, summarize_feedback, search_notes and their MCP tools',
    ),
  SEARCHES_PER_CALLER_PER_HOUR: count(10000000)
    .default(1200)
    .describe(
      "searches per hour one caller may send after the burst, refilled evenly; a `HEAD` of a search spends none (it answers the GET's status and headers, 200 or its 4xx, 429 once the budget is spent, without running the search)",
    ),
  HTTP_IDLE_TIMEOUT_MS: whole(1000, 3600000)
    .default(60000)
    .describe(
      'a connection on which the client does nothing for this long is closed: it sends nothing, stops sending its request or stops reading its answer, or sends its request too slowly (time the service spends working on a request does not count)',
    ),
  HTTP_MAX_CONNECTIONS: count(1000000)
    .default(2000)
    .describe(
      'most connections one service process holds open at once; past it new ones are refused',
    ),
  PROJECTION_WAIT_MS: whole(100, 120000)
    .default(10000)
    .describe('how long a write waits for its read models before answering 503'),
  PROJECTOR_LEASE_MS: whole(1000, 600000)
    .default(5000)
    .describe(
      'projector role: lease length; a second projector stands by and takes over this long after the first dies',
    ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool
    .default(false)
    .describe(
      'let webhooks target loopback, private, link-local and other non-public addresses, and http to loopback (local development and tests only; logged at start)',
    ),
  WEBHOOK_CONCURRENCY: whole(1, 100)
    .default(8)
    .describe('most delivery attempts in flight per webhook'),
  WEBHOOK_MAX_IN_FLIGHT: whole(1, 100000)
    .default(256)
    .describe(
      'most delivery attempts in flight in one webhook worker over all webhooks (each holds a socket and its message); past it further attempts wait their turn, neither sent nor failed',
    ),
  WEBHOOKS_PER_WORKSPACE: whole(1, 1000)
    .default(20)
    .describe(
      'most webhooks one workspace may have (every message fans out to each); create_webhook answers 409 past it',
    ),
  NOTES_TAGS_PER_USER: whole(1, 100000)
    .default(1000)
    .describe(
      'most active tags one notes user may have (list_tags answers them all at once); creating another, by create_tag or by a note naming a new tag, answers 409 past it; deleted tags do not count',
    ),
  NOTES_DEVICES_PER_USER: whole(1, 100000)
    .default(1000)
    .describe(
      'most devices one notes user may have (list_devices answers them all at once); registering another, by register_device or by a note naming a new device, answers 409 past it',
    ),
  WEBHOOK_TESTS_PER_WEBHOOK_PER_MINUTE: whole(1, 1000)
    .default(5)
    .describe(
      'send_test_webhook and redeliver_webhook calls one webhook takes in any minute (sliding); past it 429 with Retry-After (the delivery log shows the first KB of what the target answers)',
    ),
  WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE: whole(1, 10000)
    .default(20)
    .describe(
      'send_test_webhook and redeliver_webhook calls one workspace takes in any minute, over all its webhooks; and one account, over all its workspaces',
    ),
  WEBHOOK_RECOVERED_PER_WEBHOOK_PER_MINUTE: whole(1, 10000)
    .default(100)
    .describe(
      'deliveries recover_webhook queues again for one webhook in any minute (sliding); past it a recover queues the oldest that fit and leaves the rest failed (`left`), and with no room answers 429 with Retry-After',
    ),
  WEBHOOK_RECOVERED_PER_WORKSPACE_PER_MINUTE: whole(1, 100000)
    .default(200)
    .describe(
      'deliveries recover_webhook queues again for one workspace in any minute, over all its webhooks; and for one account, over all its workspaces',
    ),
  CAPTURE_IP_BURST: count(100000)
    .default(10)
    .describe(
      'submissions from the board, the capture endpoint and the widget one client IP may send at once (submit_feedback counts per caller instead)',
    ),
  CAPTURE_IP_PER_HOUR: count(1000000)
    .default(60)
    .describe(
      'submissions per hour one client IP may send after its burst, refilled evenly (token bucket in the store, shared by every API process)',
    ),
  CAPTURE_PERSON_BURST: count(100000)
    .default(5)
    .describe(
      'public submissions one visitor, or one submit_feedback caller outside the workspace, may send at once',
    ),
  CAPTURE_PERSON_PER_HOUR: count(1000000)
    .default(30)
    .describe('public submissions per hour one visitor or caller may send after the burst'),
  CAPTURE_PRODUCT_BURST: count(1000000)
    .default(300)
    .describe('public submissions one product takes at once from everyone together'),
  CAPTURE_PRODUCT_PER_HOUR: count(10000000)
    .default(3000)
    .describe('public submissions per hour one product takes after the burst'),
  CAPTURE_MIN_FILL_SECONDS: whole(0, 600)
    .default(3)
    .describe(
      'a board or widget form sent sooner than this after it was shown is refused (bots; counted from the end of the second the form was made in, so up to one second more)',
    ),
  CAPTURE_MAX_LINKS: whole(0, 100).default(3).describe('most links a public submission may hold'),
  PLUS_ONES_PER_IP_PER_HOUR: count(1000000)
    .default(300)
    .describe('public board +1 toggles per client IP per hour (bursts of a tenth of it)'),
  PLUS_ONES_PER_IP_PER_ITEM_PER_DAY: count(100000)
    .default(10)
    .describe(
      'public board +1s one client IP may add to one item per day from visitors without a confirmed e-mail address (at once, then spread over the day); withdrawing and confirmed visitors take none',
    ),
  BOARD_SEARCHES_PER_IP_BURST: count(100000)
    .default(60)
    .describe(
      "public board searches (a board page's ?q=, the suggestions while a title is typed) one client IP may send at once; each embeds its query",
    ),
  BOARD_SEARCHES_PER_IP_PER_HOUR: count(1000000)
    .default(600)
    .describe('public board searches per hour one client IP may send after its burst'),
  BOARD_CODES_PER_VISITOR_BURST: count(1000)
    .default(3)
    .describe(
      'confirmation codes one board visitor may ask for at once on the identity page (the sign-in code limits per address and per IP apply too)',
    ),
  BOARD_CODES_PER_VISITOR_PER_HOUR: count(10000)
    .default(6)
    .describe('confirmation codes per hour one board visitor may ask for after the burst'),
  LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error'])
    .default('info')
    .describe('log verbosity (`info` includes one access line per request)'),
  LOG_FORMAT: oneOf(['auto', 'json', 'pretty'])
    .default('auto')
    .describe(
      '`json`: one JSON line per entry (pino); `pretty`: readable lines; `auto`: pretty on a terminal',
    ),
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe(
      'bearer token that lets non-loopback clients read `/metrics` and the report of `/readyz` (others read its status alone); unset = loopback clients only (nobody when TRUST_PROXY is true: behind a proxy every client looks local)',
    ),
});

export type Config = z.infer<typeof configSchema>;
