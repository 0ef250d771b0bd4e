/**
 * `createServiceHttp`: one service's Express surface built from its registry — a route per
 * operation, the OpenAPI JSON, the /docs page, and the envelope for everything that goes wrong,
 * including requests that match no route.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, {
  type ErrorRequestHandler,
  type Express,
  type RequestHandler,
  Router,
} from 'express';
import { InvalidArgument } from '../../commands/shared/errors.js';
import { createDispatcher, type RouteHandler } from './dispatch.js';
import { docsRouter } from './docs.js';
import type { ErrorEnvelope } from './envelopes.js';
import { HttpProblem } from './errors.js';
import {
  type ExecutionHooks,
  executeOperation,
  type PreparedOperation,
  prepareOperation,
  type RawInput,
} from './execute.js';
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiOptions } from './openapi.js';
import type { Operation, OperationResult, RequestFacts, ServiceTypes } from './operation.js';
import { planRoutes, type RouteEntry } from './paths.js';
import {
  consoleLogger,
  correlationIdFor,
  defaultChallenge,
  errorResponder,
  type HttpLogger,
  sendJson,
} from './respond.js';

export interface ServiceHttpOptions<S extends ServiceTypes> extends ExecutionHooks<S> {
  title: string;
  version: string;
  description?: string;
  operations: readonly Operation<S>[];
  envelope: ErrorEnvelope;
  /**
   * resolve the caller from the request (for operation `op`); throw Unauthenticated for a
   * missing/bad credential
   */
  authenticate: (req: IncomingMessage, op: Operation<S>) => Promise<S['principal']>;
  /** `WWW-Authenticate` for 401 answers; default `Bearer` / `Bearer error="invalid_token"` */
  challenge?: (req: IncomingMessage, error: unknown) => string;
  /** where the OpenAPI JSON is served, e.g. `/v1/openapi.json` */
  openapiPath: string;
  /** where the interactive reference is served, e.g. `/docs`; omit for none */
  docsPath?: string;
  servers?: OpenApiOptions['servers'];
  securitySchemes?: OpenApiOptions['securitySchemes'];
  security?: OpenApiOptions['security'];
  /** largest accepted JSON body (express/bytes syntax); default `1mb` */
  bodyLimit?: string | number;
  logger?: HttpLogger;
}

export interface ServiceHttp<S extends ServiceTypes> {
  /** operation routes, OpenAPI JSON and docs; mount before anything of the service's own */
  router: Router;
  /** 404 envelope for unmatched requests, then the envelope for errors from any middleware; mount last */
  fallback: [RequestHandler, ErrorRequestHandler];
  /**
   * The server's request listener for `app` (which mounts `router`): operation requests are
   * answered before Express sees them, everything else goes on to `app` (see dispatch.ts).
   */
  serveWith(app: Express): (req: IncomingMessage, res: ServerResponse) => void;
  /** a standalone app: `before` (e.g. CORS) -> router -> `after` (e.g. oidc-provider) -> fallback */
  createApp(hooks?: { before?: (app: Express) => void; after?: (app: Express) => void }): Express;
  /** every operation route the router serves (OpenAPI-style paths), in matching order */
  listRoutes(): RouteEntry[];
  readonly openapi: OpenApiDocument;
  /** run an operation without HTTP (the MCP server); authentication is the caller's job */
  execute(operationId: string, raw: RawInput, facts: RequestFacts<S>): Promise<OperationResult>;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const media = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return (
    media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'))
  );
}

export function createServiceHttp<S extends ServiceTypes>(
  options: ServiceHttpOptions<S>,
): ServiceHttp<S> {
  const routes = planRoutes(options.operations);
  const openapi = buildOpenApiDocument(options.operations, options);
  const openapiJson = JSON.stringify(openapi);
  const respondError = errorResponder({
    envelope: options.envelope,
    logger: options.logger ?? consoleLogger(),
    challenge: options.challenge ?? defaultChallenge,
  });
  const hooks: ExecutionHooks<S> = {
    authorize: options.authorize,
    waitFor: options.waitFor,
    validateResponses: options.validateResponses,
  };
  const jsonParser = express.json({
    limit: options.bodyLimit ?? '1mb',
    type: () => true,
    strict: true,
  });
  const prepared = new Map(options.operations.map((op) => [op.id, prepareOperation(op)]));

  function readBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const length = req.headers['content-length'];
    const hasBody =
      req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!hasBody) return Promise.resolve(undefined);
    if (!isJsonType(req.headers['content-type'])) {
      return Promise.reject(
        new HttpProblem('unsupported-media-type', 'Content-Type must be application/json'),
      );
    }
    return new Promise((resolve, reject) => {
      // body-parser reads a plain IncomingMessage and leaves the value on `req.body`
      const parsed = req as IncomingMessage & { body?: unknown };
      jsonParser(parsed as never, res as never, (err?: unknown) =>
        err ? reject(err) : resolve(parsed.body),
      );
    });
  }

  function headerOf(req: IncomingMessage, name: string): string | undefined {
    const value = req.headers[name];
    return typeof value === 'string' ? value : undefined;
  }

  function handlerFor(entry: PreparedOperation<S>): RouteHandler {
    const { op } = entry;
    return async (req, res, target) => {
      const correlationId = correlationIdFor(req, res);
      try {
        const principal = op.auth === 'bearer' ? await options.authenticate(req, op) : undefined;
        const idempotencyKey = headerOf(req, 'idempotency-key');
        if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
          throw new InvalidArgument('Idempotency-Key must be 1 to 255 visible ASCII characters');
        }
        const body = op.body ? await readBody(req, res) : undefined;
        const raw: RawInput = { params: target.params, query: target.query, body };
        const facts: RequestFacts<S> = {
          correlationId,
          idempotencyKey,
          ifMatch: headerOf(req, 'if-match'),
          req,
          res,
          principal,
        };
        const result = await executeOperation(entry, raw, facts, hooks);
        // A handler that wrote to ctx.res itself (a stream, a redirect) has answered already.
        if (res.headersSent) return;
        if (result.headers)
          for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
        const status = result.status ?? op.successStatus;
        if (status === 204 || result.body === undefined) {
          res.statusCode = status;
          res.end();
        } else {
          sendJson(res, status, result.body);
        }
      } catch (err) {
        respondError(req, res, err, op.id);
      }
    };
  }

  const router = Router();
  router.get(options.openapiPath, (_req, res) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(openapiJson);
  });
  // One dispatcher for every operation (see dispatch.ts); a known path with another method
  // says which methods exist (404 or 405 per envelope).
  const dispatcher = createDispatcher(
    routes,
    (route) => handlerFor(prepared.get(route.operationId)!),
    (req, res, allow) => {
      res.setHeader('Allow', allow);
      if (req.method === 'OPTIONS') {
        res.statusCode = 204;
        res.end();
        return;
      }
      respondError(
        req,
        res,
        new HttpProblem(
          'method-not-allowed',
          `${req.method} is not allowed here; allowed: ${allow}`,
        ),
      );
    },
  );
  router.use(dispatcher.middleware);

  // After the operations: a request for an operation should not first walk the docs router.
  if (options.docsPath) {
    router.use(
      docsRouter({
        docsPath: options.docsPath,
        openapiPath: options.openapiPath,
        title: options.title,
      }),
    );
  }
  // Two plain handlers, not a Router: Express only passes errors to 4-argument functions.
  const fallback: ServiceHttp<S>['fallback'] = [
    (req, res) => {
      respondError(
        req,
        res,
        new HttpProblem('route-not-found', `no route for ${req.method} ${req.path}`),
      );
    },
    (err, req, res, _next) => respondError(req, res, err),
  ];

  return {
    router,
    fallback,
    serveWith(app) {
      return (req, res) => {
        if (!dispatcher.front(req, res)) app(req, res);
      };
    },
    createApp(appHooks = {}) {
      const app = express();
      app.disable('x-powered-by');
      app.set('etag', false);
      appHooks.before?.(app);
      app.use(router);
      appHooks.after?.(app);
      app.use(fallback);
      return app;
    },
    listRoutes: () => routes.map((route) => ({ ...route })),
    openapi,
    async execute(operationId, raw, facts) {
      const entry = prepared.get(operationId);
      if (!entry) throw new HttpProblem('route-not-found', `no operation ${operationId}`);
      return executeOperation(entry, raw, facts, hooks);
    },
  };
}
