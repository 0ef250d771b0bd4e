/**
 * The operations listener (OPS_PORT) of the `projector` and `webhooks` roles, which serve no
 * service: an orchestrator's liveness and readiness probes and a Prometheus scraper need a port
 * there too. It is a service's Express app without operations (service-app.ts): the same
 * /healthz, /readyz and /metrics handlers and METRICS_TOKEN rule, the access log and request
 * metrics (service `ops`), and the 404 envelope for anything else — the feedback board's
 * `{error, code}`, whose `error` is all the notes envelope has. Its answers are JSON and text,
 * never pages, so they carry the API set of security headers.
 *
 * The runtime opens it before a standby projector waits for its lease: liveness answers during
 * the wait, or an orchestrator would restart every standby.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { feedbackEnvelope } from '../http/envelopes.js';
import { clientErrorAnswer, defaultChallenge, errorResponder } from '../http/respond.js';
import { envelopeFallback } from '../http/service-http.js';
import { connectionBounds, listenWhileBooting } from './http-server.js';
import { httpUrl } from './http-url.js';
import { apiSecurityHeaders } from './security-headers.js';
import type { ServiceContext } from './service.js';
import { serviceApp } from './service-app.js';
import { clientErrorTelemetry, telemetryOf } from './telemetry.js';

/** the roles that serve no service, and so listen only when OPS_PORT is set */
const OPS_ROLES = new Set(['projector', 'webhooks']);

export interface OpsListener {
  server: Server;
  /** http://HOST:port */
  url: string;
}

/** Listening when the role is one of OPS_ROLES and OPS_PORT is set; otherwise undefined. */
export async function startOpsListener(
  role: string,
  ctx: Pick<ServiceContext, 'config' | 'logger' | 'metrics' | 'health'>,
): Promise<OpsListener | undefined> {
  const { OPS_PORT, HOST } = ctx.config;
  if (OPS_PORT === undefined || !OPS_ROLES.has(role)) return undefined;
  const envelope = feedbackEnvelope();
  const respondError = errorResponder({
    envelope,
    logger: ctx.logger,
    challenge: defaultChallenge,
  });
  const app = serviceApp(ctx, {
    service: 'ops',
    before: [apiSecurityHeaders({ https: false })],
    fallback: envelopeFallback(respondError),
  });
  const { server, serve } = await listenWhileBooting(OPS_PORT, HOST, connectionBounds(ctx.config));
  serve({
    app,
    onClientError: clientErrorTelemetry(telemetryOf('ops', ctx), clientErrorAnswer(envelope)),
  });
  const url = httpUrl(HOST, (server.address() as AddressInfo).port);
  ctx.logger.info('ops listening', { url, role });
  return { server, url };
}
