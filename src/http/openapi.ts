/**
 * The OpenAPI 3.1 document, generated from the same registry entries that build the routes, so
 * the two cannot drift. Built once at startup.
 */
import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  zodToOpenAPIRegistry,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { ErrorEnvelope } from './envelopes.js';
import { IDEMPOTENCY_KEY } from './steps/input.js';
import type { Operation, ServiceTypes } from './operation.js';

type SecurityScheme = Parameters<OpenAPIRegistry['registerComponent']>[2];
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

type SecurityRequirement = Record<string, string[]>;

export interface OpenApiOptions<S extends ServiceTypes = ServiceTypes> {
  title: string;
  version: string;
  description?: string;
  servers?: { url: string; description?: string }[];
  /** default: `{ bearerAuth: { type: 'http', scheme: 'bearer' } }` */
  securitySchemes?: Record<string, SecurityScheme>;
  /**
   * requirement placed on every `auth: 'bearer'` operation; default: any one of the schemes
   * (e.g. `[{ bearerAuth: [] }, { oauth2: [] }]`). A function gives each operation its own: an
   * operation that refuses a scheme's credentials must not list it (a generated client offers it)
   */
  security?: SecurityRequirement[] | ((op: Operation<S>) => SecurityRequirement[]);
  envelope: ErrorEnvelope;
  /**
   * the requests the service itself sends (OpenAPI 3.1 `webhooks`): a subscriber's receiver
   * is generated and checked from them as a client is from `paths`
   */
  webhooks?: readonly OutboundWebhook[];
}

/** One kind of request the service POSTs to its subscribers' receivers. */
export interface OutboundWebhook {
  /** the key under `webhooks` (a message type) */
  name: string;
  summary: string;
  description?: string;
  /** the headers every such request carries */
  headers: z.ZodObject;
  /** the JSON body */
  body: z.ZodType;
  /** what the receiver answers, by status (`2XX`, `default`) */
  responses: Record<string, string>;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: a value outside its bounds or enum, an unknown field, malformed JSON',
  401: 'Missing, invalid or expired credential',
  403: 'The credential may not call this operation',
  404: 'Not found (or not visible to the caller)',
  405: 'Method not allowed on this path',
  409: 'The current state does not allow the request',
  412: 'A precondition (If-Match, If-None-Match) does not hold',
  413: 'Request body too large',
  415: 'Request body is not JSON',
  429: 'Too many requests; see Retry-After',
  503: 'Busy; retry after Retry-After. Either a burst on one resource outlasted the retry deadline (nothing was written), or the write is stored but the read models did not show it in time (a retry with the same Idempotency-Key returns the first result)',
  500: 'Internal error; the x-correlation-id header identifies it in the logs',
};

/**
 * Every error status an operation can answer: what it declares, plus what the registry's own
 * steps answer for any operation of its kind — 401 with a bearer credential; for a body (and a
 * write without one, which refuses one sent), the envelope's answers to malformed JSON, a wrong
 * Content-Type and an oversize body; for a write, 400 for a malformed Idempotency-Key, the
 * conflict status for a key already used by a different request, and 503 when the read models do
 * not catch up in time; 429 for an operation drawing on a per-caller budget.
 */
export function declaredErrors<S extends ServiceTypes>(
  op: Operation<S>,
  envelope: ErrorEnvelope,
): number[] {
  const statuses = new Set(op.errors);
  if (op.auth === 'bearer') statuses.add(envelope.status('unauthenticated'));
  if (op.body || op.method !== 'get') {
    statuses.add(envelope.status('invalid-argument'));
    statuses.add(envelope.status('unsupported-media-type'));
    statuses.add(envelope.status('payload-too-large'));
  }
  if (op.throttled) statuses.add(envelope.status('resource-exhausted'));
  if (op.method !== 'get') {
    statuses.add(envelope.status('invalid-argument'));
    statuses.add(envelope.status('conflict'));
    statuses.add(envelope.status('unavailable'));
  }
  return [...statuses].sort((a, b) => a - b);
}

/** The header every write reads (lifecycle.ts checkIdempotencyKey; the command handler's replay). */
const IDEMPOTENCY_HEADER = z.object({
  'idempotency-key': z
    .string()
    .regex(IDEMPOTENCY_KEY)
    .optional()
    .describe(
      'Makes a retry safe: the same key on the same resource returns the first result instead of writing again; the same key with a different request is refused. 1 to 255 visible ASCII characters.',
    ),
});

/** The conditional-request headers of a `versioned` operation (RFC 9110 §13.1). */
const IF_MATCH = z.object({
  'if-match': z
    .string()
    .optional()
    .describe(
      'Refuses the write (412) unless the resource is still at the revision of this ETag; the revision part is compared, so `"3"` works as well as the full tag. A value that lists no entity tag (unquoted words, `W/x`) answers 400.',
    ),
});
const IF_MATCH_ON_READ = z.object({
  'if-match': z
    .string()
    .optional()
    .describe(
      'Answers 412 instead of the resource unless it is still at the revision of this ETag (`*`: any revision; a weak tag never matches); 400 for a value that lists no entity tag. Evaluated before If-None-Match.',
    ),
});
const IF_NONE_MATCH = z.object({
  'if-none-match': z
    .string()
    .optional()
    .describe('Answers 304 without a body while the resource still has this ETag.'),
});
const IF_NONE_MATCH_ON_WRITE = z.object({
  'if-none-match': z
    .string()
    .optional()
    .describe(
      'Refuses the write (412) when it is `*` (the resource exists) or lists the current ETag (weak comparison). Evaluated after If-Match.',
    ),
});

/** The conditional-request headers of a create whose target is its collection (no ETag). */
const ON_COLLECTION = z.object({
  'if-match': z
    .string()
    .optional()
    .describe(
      'Only `*` holds: the collection this adds to carries no ETag, so any other value is refused (412).',
    ),
  'if-none-match': z
    .string()
    .optional()
    .describe(
      '`*` is refused (412): the collection this adds to exists. A list of tags cannot match it, so the create goes ahead.',
    ),
});

/** Headers the answers carry, declared so generated clients expose them. */
const string = { type: 'string' as const };
const ETAG_HEADER = {
  ETag: {
    description: 'The revision and a digest of the answer: send it as If-Match or If-None-Match',
    schema: string,
  },
};
const LOCATION_HEADER = {
  Location: { description: 'Where the created resource lives', schema: string },
};
const RETRY_AFTER_HEADER = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: string },
};
const WWW_AUTHENTICATE_HEADER = {
  'WWW-Authenticate': {
    description:
      'The bearer challenge, with `resource_metadata` (RFC 9728) naming how to get a token',
    schema: string,
  },
};

function errorHeaders(status: number) {
  if (status === 401) return WWW_AUTHENTICATE_HEADER;
  if (status === 429 || status === 503) return RETRY_AFTER_HEADER;
  return undefined;
}

function requestHeaders(op: {
  method: string;
  versioned?: true;
  createsInCollection?: true;
  successStatus?: number;
}) {
  if (op.method === 'get')
    return op.versioned ? IF_MATCH_ON_READ.extend(IF_NONE_MATCH.shape) : undefined;
  if (!op.versioned) return IDEMPOTENCY_HEADER;
  if (op.createsInCollection) return IDEMPOTENCY_HEADER.extend(ON_COLLECTION.shape);
  const conditional = IDEMPOTENCY_HEADER.extend(IF_MATCH.shape);
  // another create (201) checks If-Match against its parent, and has no resource of its own yet
  // to compare If-None-Match with
  return op.successStatus === 201 ? conditional : conditional.extend(IF_NONE_MATCH_ON_WRITE.shape);
}

const KEY_REUSED = 'or the Idempotency-Key was already used for a different request';

function describe(op: { description?: string; extraDescription?: string }): string | undefined {
  const parts = [op.description, op.extraDescription].filter((p): p is string => !!p);
  return parts.length ? parts.join('\n\n') : undefined;
}

export function buildOpenApiDocument<S extends ServiceTypes>(
  operations: readonly Operation<S>[],
  options: OpenApiOptions<S>,
): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  // A clone named through the library's own metadata registry: `registry.register` would need
  // zod's prototype patched (extendZodWithOpenApi), and `.meta({ id })` ids are process-global.
  const errorSchema = options.envelope.schema.clone();
  zodToOpenAPIRegistry.add(errorSchema, { _internal: { refId: 'Error' } });
  const schemes = options.securitySchemes ?? { bearerAuth: { type: 'http', scheme: 'bearer' } };
  for (const [name, scheme] of Object.entries(schemes)) {
    registry.registerComponent('securitySchemes', name, scheme);
  }
  const anyScheme = Object.keys(schemes).map((name) => ({ [name]: [] }));
  const securityOf = (op: Operation<S>) =>
    typeof options.security === 'function' ? options.security(op) : (options.security ?? anyScheme);

  for (const op of operations) {
    const responses: Record<string, ResponseConfig> = {};
    const successHeaders = {
      ...(op.versioned && op.successStatus !== 204 ? ETAG_HEADER : {}),
      ...(op.versioned && op.successStatus === 201 ? LOCATION_HEADER : {}),
    };
    responses[String(op.successStatus)] =
      op.successStatus === 204 || !op.response
        ? { description: op.responseDescription ?? 'Done; no body' }
        : {
            description: op.responseDescription ?? 'Success',
            ...(Object.keys(successHeaders).length ? { headers: successHeaders } : {}),
            content: { 'application/json': { schema: op.response } },
          };
    if (op.versioned && op.method === 'get') {
      responses['304'] = {
        description: 'Not Modified: If-None-Match lists the current ETag; no body',
        headers: ETAG_HEADER,
      };
    }
    const conflict = options.envelope.status('conflict');
    for (const status of declaredErrors(op, options.envelope)) {
      const description = ERROR_DESCRIPTIONS[status] ?? 'Error';
      const headers = errorHeaders(status);
      responses[String(status)] = {
        description:
          status === conflict && op.method !== 'get'
            ? `${description}, ${KEY_REUSED}`
            : description,
        ...(headers ? { headers } : {}),
        content: { 'application/json': { schema: errorSchema } },
      };
    }
    registry.registerPath({
      method: op.method,
      path: op.path,
      operationId: op.id,
      summary: op.summary,
      description: describe(op),
      tags: op.tags,
      security: op.auth === 'bearer' ? securityOf(op) : [],
      request: {
        params: op.params,
        query: op.query,
        headers: requestHeaders(op),
        body: op.body
          ? { required: op.bodyRequired, content: { 'application/json': { schema: op.body } } }
          : undefined,
      },
      responses,
      ...(op.idempotent ? { 'x-idempotent': true } : {}),
      ...(op.destructive ? { 'x-destructive': true } : {}),
      ...(op.openWorld ? { 'x-open-world': true } : {}),
    });
  }

  for (const hook of options.webhooks ?? []) {
    registry.registerWebhook({
      method: 'post',
      path: hook.name,
      summary: hook.summary,
      description: hook.description,
      request: {
        headers: hook.headers,
        body: { required: true, content: { 'application/json': { schema: hook.body } } },
      },
      responses: Object.fromEntries(
        Object.entries(hook.responses).map(([status, description]) => [status, { description }]),
      ),
    });
  }

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, description: options.description },
    servers: options.servers,
  });
}
