/**
 * The Express app of a service, in one order for both services: telemetry first (it sees every
 * request, operations included), then the operation registry's middleware (operations, OpenAPI,
 * docs) ahead of everything else so an operation request walks no other route, then liveness,
 * readiness and metrics, the service's own routes (its OAuth server), and the registry's
 * fallback last (404 and error envelopes). Middleware that must apply to operations goes in
 * `before`.
 */
import { strictQuery } from '../http/query-string.js';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { healthRouter } from './health.js';
import { metricsRouter } from './metrics-route.js';
import { operatorCheck } from './operator-access.js';
import type { ServiceContext } from './service.js';
import { requestTelemetry, telemetryOf } from './telemetry.js';

export interface ServiceAppParts {
  service: string;
  before?: RequestHandler[];
  /**
   * the registry's middleware (service-http.ts): the operations, then OpenAPI and docs; none in
   * the operations listener of the projector and webhooks roles (ops-listener.ts)
   */
  operations?: RequestHandler[];
  routes?: RequestHandler[];
  fallback: [RequestHandler, ErrorRequestHandler];
}

export function serviceApp(
  ctx: Pick<ServiceContext, 'config' | 'logger' | 'metrics' | 'health'>,
  parts: ServiceAppParts,
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', strictQuery);
  app.use(requestTelemetry(telemetryOf(parts.service, ctx)));
  for (const handler of parts.before ?? []) app.use(handler);
  if (parts.operations) app.use(parts.operations);
  const isOperator = operatorCheck({
    token: ctx.config.METRICS_TOKEN,
    behindProxy: ctx.config.TRUST_PROXY,
  });
  app.use(healthRouter(ctx.health, isOperator));
  app.use(metricsRouter(ctx.metrics, isOperator));
  for (const handler of parts.routes ?? []) app.use(handler);
  app.use(parts.fallback);
  return app;
}
