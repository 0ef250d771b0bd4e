/**
 * `createServiceHttp`: one service's Express surface built from its registry — one middleware
 * that serves every operation (the route table plus the request's steps, lifecycle.ts), the
 * OpenAPI JSON, the /docs page, and the envelope for everything that goes wrong, including
 * requests that match no route and requests node:http refuses before Express sees them.
 *
 * Express serves every operation: mount `router` in the service's app after anything that must
 * see operation requests (`app.use(cors())`, a request logger), then `fallback` last.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  Router,
} from 'express';
import { bodyOverLimit, jsonBody, limitInBytes } from './json-body.js';
import { NotFound } from '../../commands/shared/errors.js';
import { docsRouter } from './docs.js';
import type { ErrorEnvelope } from './envelopes.js';
import { HttpProblem } from './errors.js';
import {
  CORE_STEPS,
  type Exchange,
  HTTP_STEPS,
  type LifecycleHooks,
  type PreparedOperation,
  prepareOperation,
  type RawInput,
  runSteps,
} from './lifecycle.js';
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiOptions } from './openapi.js';
import type { Operation, OperationResult, RequestFacts, ServiceTypes } from './operation.js';
import { planRoutes, type RouteEntry } from './paths.js';
import {
  clientErrorAnswer,
  consoleLogger,
  defaultChallenge,
  type ErrorResponder,
  errorResponder,
  type HttpLogger,
  requestIdsFor,
} from './respond.js';
import { createRouteTable, UndecodableParam } from './route-table.js';

export interface ServiceHttpOptions<S extends ServiceTypes>
  extends Omit<LifecycleHooks<S>, 'readJson'> {
  title: string;
  version: string;
  description?: string;
  operations: readonly Operation<S>[];
  envelope: ErrorEnvelope;
  /** `WWW-Authenticate` for 401 answers; default `Bearer` / `Bearer error="invalid_token"` */
  challenge?: (req: IncomingMessage, error: unknown) => string;
  /** where the OpenAPI JSON is served, e.g. `/v1/openapi.json` */
  openapiPath: string;
  /** where the interactive reference is served, e.g. `/docs`; omit for none */
  docsPath?: string;
  servers?: OpenApiOptions['servers'];
  securitySchemes?: OpenApiOptions['securitySchemes'];
  security?: OpenApiOptions<S>['security'];
  /** the requests the service sends to subscribers (OpenAPI `webhooks`) */
  webhooks?: OpenApiOptions['webhooks'];
  /** largest accepted JSON body (express/bytes syntax); default `1mb` */
  bodyLimit?: string | number;
  logger?: HttpLogger;
  /** headers for every answer that is not an operation's (docs, the service's pages, errors) */
  pageHeaders?: RequestHandler;
}

export interface ServiceHttp<S extends ServiceTypes> {
  /**
   * `app.use(http.middleware)` after anything that must see operation requests: first the one
   * middleware that serves every operation, then a router with the OpenAPI JSON and the docs.
   * The operations' middleware is mounted on the app itself, not inside a Router: a nested
   * Router is a second dispatch per request (measured with bench:api's get_item, alternating
   * runs: ~5,200 → ~5,900 requests/s once the operations left the Router).
   */
  middleware: [RequestHandler, Router];
  /** 404 envelope for unmatched requests, then the envelope for errors from any middleware; mount last */
  fallback: [RequestHandler, ErrorRequestHandler];
  /**
   * for the server's `clientError` event: node:http's own refusals (431, 408, 400) in the
   * envelope; returns the status answered (undefined: the client was gone)
   */
  onClientError(error: Error & { code?: string }, socket: Duplex): number | undefined;
  /** every operation route the router serves (OpenAPI-style paths), in matching order */
  listRoutes(): RouteEntry[];
  readonly openapi: OpenApiDocument;
  /** the operations it serves, in declaration order (the MCP servers make tools of them) */
  readonly operations: readonly Operation<S>[];
  /** run an operation without HTTP (the MCP server); authentication is the caller's job */
  execute(operationId: string, raw: RawInput, facts: RequestFacts<S>): Promise<OperationResult>;
}

export function createServiceHttp<S extends ServiceTypes>(
  options: ServiceHttpOptions<S>,
): ServiceHttp<S> {
  const routes = planRoutes(options.operations);
  const table = createRouteTable(routes);
  const openapi = buildOpenApiDocument(options.operations, options);
  const openapiJson = JSON.stringify(openapi);
  const respondError = errorResponder({
    envelope: options.envelope,
    logger: options.logger ?? consoleLogger(),
    challenge: options.challenge ?? defaultChallenge,
  });
  const bodyLimit = options.bodyLimit ?? '1mb';
  const bodyLimitBytes = limitInBytes(bodyLimit);
  const jsonParser = jsonBody({
    limit: bodyLimit,
    type: () => true,
    strict: true,
  });
  const hooks: LifecycleHooks<S> = {
    ...options,
    readJson: (req, res) =>
      new Promise((resolve, reject) => {
        // body-parser leaves the value on `req.body`
        const parsed = req as IncomingMessage & { body?: unknown };
        jsonParser(parsed as never, res as never, (err?: unknown) =>
          err ? reject(err) : resolve(parsed.body),
        );
      }),
  };
  const prepared = new Map(options.operations.map((op) => [op.id, prepareOperation(op)]));
  const byRoute = new Map(routes.map((r) => [r.operationId, prepared.get(r.operationId)!]));

  /** The one way an operation request is served: match, then the steps of lifecycle.ts. */
  const serveOperations: RequestHandler = (req, res, next) => {
    const match = table.match(req.method, req.path);
    if (!match) {
      next();
      return;
    }
    const entry = byRoute.get(match.route.entry.operationId)!;
    if (!match.methodMatches) {
      res.setHeader('Allow', match.route.allow);
      if (req.method === 'OPTIONS') {
        res.statusCode = 204;
        res.end();
        return;
      }
      const problem = `${req.method} is not allowed here; allowed: ${match.route.allow}`;
      respondError(req, res, new HttpProblem('method-not-allowed', problem));
      return;
    }
    serve(entry, req, res, () => table.paramsOf(match));
  };

  async function serve(
    entry: PreparedOperation<S>,
    req: Request,
    res: Response,
    paramsOf: () => Record<string, string>,
  ): Promise<void> {
    const ids = requestIdsFor(req, res);
    res.locals.operationId = entry.op.id;
    try {
      const x: Exchange<S> = {
        prepared: entry,
        facts: {
          ...ids,
          idempotencyKey: headerOf(req, 'idempotency-key'),
          ifMatch: headerOf(req, 'if-match'),
          ifNoneMatch: headerOf(req, 'if-none-match'),
          req,
          res,
          principal: undefined,
        },
        raw: {
          params: decodedParams(paramsOf),
          // parsed when validated, once the caller is known: a query string that is not UTF-8
          // answers 400 to a caller with a credential, and 401 to one without (RawInput)
          get query() {
            return req.query;
          },
          body: undefined,
        },
      };
      await runSteps(HTTP_STEPS, x, hooks);
    } catch (err) {
      respondError(req, res, err, entry.op.id);
    }
  }

  function decodedParams(paramsOf: () => Record<string, string>): Record<string, string> {
    try {
      return paramsOf();
    } catch (error) {
      if (!(error instanceof UndecodableParam)) throw error;
      // an escape that does not decode names nothing: the resource is not there
      throw new NotFound(error.message);
    }
  }

  // What is not an operation: served after the operations' middleware, which an operation
  // request never leaves.
  const router = Router();
  if (options.pageHeaders) router.use(options.pageHeaders);
  router.get(options.openapiPath, (_req, res) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(openapiJson);
  });
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
  return {
    middleware: [serveOperations, router],
    fallback: envelopeFallback(respondError),
    onClientError: clientErrorAnswer(options.envelope),
    listRoutes: () => routes.map((route) => ({ ...route })),
    openapi,
    operations: options.operations,
    async execute(operationId, raw, facts) {
      const entry = prepared.get(operationId);
      if (!entry) throw new HttpProblem('route-not-found', `no operation ${operationId}`);
      // the body REST would have read: bounded as REST bounds it (json-body.ts bodyOverLimit)
      const tooLarge = bodyOverLimit(raw.body, bodyLimitBytes);
      if (tooLarge) throw tooLarge;
      return runSteps(CORE_STEPS, { prepared: entry, facts, raw }, hooks);
    },
  };
}

/**
 * The last handlers of an app: a request no route answered gets the envelope's 404, an error
 * from any middleware its envelope. Two plain handlers, not a Router: Express only passes errors
 * to 4-argument functions.
 */
export function envelopeFallback(
  respondError: ErrorResponder,
): [RequestHandler, ErrorRequestHandler] {
  return [
    (req, res) => {
      respondError(
        req,
        res,
        new HttpProblem('route-not-found', `no route for ${req.method} ${req.path}`),
      );
    },
    (err, req, res, _next) => respondError(req, res, err),
  ];
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}
