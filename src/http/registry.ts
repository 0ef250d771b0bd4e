/**
 * The operation registry — how a service declares its HTTP surface. Import everything from here.
 *
 * 1. Fix the service's types once and get a typed `define`:
 *
 *      type Feedback = { principal: Caller; meta: { admin?: boolean; publicScope?: boolean }; access: Membership | undefined };
 *      export const defineOp = operationsFor<Feedback>();
 *
 * 2. Declare each operation once (one file per operation or per small group):
 *
 *      export const listItems = defineOp({
 *        id: 'list_items',                       // the spec's id; also the MCP tool name
 *        method: 'get',
 *        path: '/v1/workspaces/{slug}/products/{key}/items',   // OpenAPI style; keys = params schema keys
 *        summary: 'List items of a product',
 *        tags: ['Items'],
 *        params: z.object({ slug: Slug, key: ProductKey }),
 *        query: z.object({ status: ItemStatus.optional(), cursor: cursorParam(),
 *                          pageSize: pageSizeParam({ max: 200, default: 50 }) }),
 *        response: pageOf(Item),                 // success 200 unless successStatus says otherwise
 *        errors: [400, 401, 403, 404],           // documented with the envelope in OpenAPI
 *        auth: 'bearer',                         // or 'none' (ctx.principal is then undefined)
 *        meta: { admin: false },                 // read only by the service's authorize()
 *        extraDescription: 'Any member.',        // appended to the OpenAPI description
 *        async handler(ctx) { ... return { body: { items, nextCursor } }; },
 *      });
 *
 *    Schemas: query values arrive as strings; declare them with their real type (`z.number().int()`,
 *    `z.boolean()`, `z.array(...)`) and the registry converts before validating, so OpenAPI shows
 *    the real types and bounds. Use `.strict()` on bodies where the spec says "no other fields
 *    allowed". Name shared schemas with `.meta({ id: 'Item' })` to get a `components/schemas` entry
 *    (zod keeps ids process-wide: declare such schemas once, at module level, with names unique
 *    across both services, e.g. `NoteTag` vs `ItemTag`).
 *    A body is required unless `bodyRequired: false`; it must be `application/json`. A write
 *    without `body` refuses one with a field as an unknown field ("it takes none"); no body, an
 *    empty one and `{}` pass. A read (GET) never reads a body.
 *
 *    Handler: `ctx` has `params`, `query`, `body` (parsed and typed), `principal`, `access` (what
 *    authorize returned), `correlationId`, `idempotencyKey` (Idempotency-Key header), `ifMatch`
 *    (If-Match header; see `assertIfMatch`), and `req`/`res` over HTTP only (absent under MCP:
 *    prefer the typed fields). Return `{ status?, body?, headers? }`. A write also returns
 *    `position` (the event-log position its command reached, null when nothing was appended):
 *    the registry answers only once the read models include it, so the client's next read sees
 *    its write. A write that answers the changed resource returns `readBack` instead of `body`,
 *    a function the registry calls after that wait:
 *
 *        return { position, readBack: async () => ({ body: { item: await itemNow() } }) };
 *
 *    `successStatus: 204` operations return no body. Refuse with the typed errors of
 *    commands/shared/errors.ts (InvalidArgument, NotFound, PermissionDenied, FailedPrecondition,
 *    AlreadyExists, Conflict, ResourceExhausted / Unavailable with retryAfterSeconds ->
 *    Retry-After); `answerAs: { 'failed-precondition': 'invalid-argument' }` on the operation
 *    answers one kind as another where the spec declares fewer statuses. Anything else thrown is
 *    logged with the correlation id and answered `internal` without details.
 *    `withResponseHeaders(err, {...})` adds headers to an error answer (e.g.
 *    `WWW-Authenticate: Bearer error="insufficient_scope"` on a 403).
 *
 * 3. Build the service's HTTP surface and mount it in the service's Express app:
 *
 *      const http = createServiceHttp<Feedback>({
 *        title: 'Feedback board', version: '1.0.0', operations: [listItems, ...],
 *        envelope: feedbackEnvelope(),           // or notesEnvelope(); statuses in envelopes.ts
 *        authenticate: async (req) => ...,       // throw Unauthenticated -> 401 + WWW-Authenticate
 *        challenge: (req, err) => 'Bearer resource_metadata="..."',   // optional
 *        authorize: async (op, principal, ctx) => ..., // throw PermissionDenied/NotFound; return access
 *        waitFor: (position) => engine.waitFor(position),
 *        unknownParam: (name) => 'workspace not found',  // 404 message for a malformed path parameter
 *        openapiPath: '/v1/openapi.json', docsPath: '/docs',
 *        servers: [{ url: baseUrl }], securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
 *        bodyLimit: '1mb', logger,
 *      });
 *      const app = express();
 *      app.use(cors());                // anything mounted before it sees every operation
 *      app.use(http.middleware);       // the operations, then the OpenAPI JSON and /docs
 *      app.use(oauthRouter);           // the service's own routes
 *      app.use(http.fallback);         // last: 404 envelope, then the envelope for any error
 *      createServer(app).on('clientError', http.onClientError);
 *
 *    Express serves every operation: `http.middleware` starts with the one middleware that holds
 *    the route table (route-table.ts) and runs the request's steps (lifecycle.ts): authenticate
 *    (401) -> Idempotency-Key check (writes) -> body read (content type, size, JSON) -> params,
 *    query, body validation (400; a malformed path parameter is 404 with `unknownParam`) ->
 *    authorize (403/404) -> handle -> wait for the read models -> answer. `validateResponses: true` checks
 *    each answer against `response` (tests; costs time). The statuses an operation can answer
 *    are its `errors` plus what these steps add (openapi.ts `declaredErrors`).
 *    `http.listRoutes()` lists every operation route; `http.execute(id, raw, facts)` runs the
 *    steps from validation on without HTTP (the MCP server, which authenticates on its own).
 *
 * Helpers: pagination.ts (pageSizeParam, limitParam, cursorParam, pageOf, nextCursorOf,
 * createCursorCodec with HMAC-signed opaque cursors -> tampering is 400), etag.ts (etagFor, assertIfMatch or
 * ifMatchHolds/ifMatchRefused -> 412, expectedRevisionFrom). Envelopes and the status chosen for each error kind: envelopes.ts.
 */
export {
  feedbackEnvelope,
  notesEnvelope,
  type ErrorEnvelope,
  FEEDBACK_ERROR_CODES,
} from './envelopes.js';
export {
  HttpProblem,
  PreconditionFailed,
  resolveError,
  withResponseHeaders,
  type ErrorKind,
} from './errors.js';
export {
  assertIfMatch,
  etagFor,
  expectedRevisionFrom,
  ifMatchHolds,
  ifMatchRefused,
  notModified,
  revisionsNamed,
  shownTags,
} from './etag.js';
export { memoizedJson, RawJson } from '../../projections/shared/raw-json.js';
export type { LifecycleHooks, RawInput } from './lifecycle.js';
export type { OpenApiDocument } from './openapi.js';
export {
  defineOperation,
  operationsFor,
  type DefaultServiceTypes,
  type ErasedContext,
  type HttpMethod,
  type Operation,
  type OperationContext,
  type OperationResult,
  type OperationSpec,
  type RequestFacts,
  type ServiceTypes,
} from './operation.js';
export {
  createCursorCodec,
  cursorParam,
  howToPage,
  limitParam,
  nextCursorOf,
  pageOf,
  pageSizeParam,
  boundedInt,
  type CursorCodec,
} from './pagination.js';
export { RegistryError, type RouteEntry } from './paths.js';
export { searchQueryParam } from './search-query.js';
export { type HttpLogger, reportFailure } from './respond.js';
export { createServiceHttp, type ServiceHttp, type ServiceHttpOptions } from './service-http.js';
