/**
 * Per request: one access-log line (correlation id, the client's own when it sent a well-formed
 * one, operation id, method, path, status,
 * duration, caller label) and the request-duration histogram. Mounted first in each service's
 * Express app, so it sees every request, operations included; the operation registry records
 * the operation id and the caller label on `res.locals`. The requests node:http refuses before
 * any app sees them (the server's `clientError`) get theirs from `clientErrorTelemetry`.
 */
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import { ANSWERED_STATUS, requestIdsFor } from '../http/respond.js';
import { wasCutAtShutdown } from './http-server.js';
import { type Logger, loggedPath } from './logger.js';
import type { Metrics } from './metrics.js';
import type { ServedApp, ServiceContext } from './service.js';

/** The status logged for a request whose client closed the connection before its answer. */
export const CLIENT_CLOSED = 499;
/**
 * The status logged for a request the server cut unanswered when its stop's grace ran out
 * (nginx's 444, "connection closed without response"); its access line says `cut: "shutdown"`.
 */
export const CUT_AT_SHUTDOWN = 444;

/**
 * The operation label of a request node:http refused before it was parsed (a broken request
 * line, 431, 408): nothing in it can be trusted to name an operation, and a metric label must
 * stay bounded.
 */
export const UNPARSED = '(unparsed)';

export interface TelemetryOptions {
  service: string;
  logger: Logger;
  metrics: Metrics;
  /** false when the log level is above info: the access line is then not even built */
  accessLog: boolean;
}

/** The telemetry of one service's server (`service`: its label in the log and the metrics). */
export function telemetryOf(
  service: string,
  ctx: Pick<ServiceContext, 'config' | 'logger' | 'metrics'>,
): TelemetryOptions {
  const { LOG_LEVEL } = ctx.config;
  return {
    service,
    logger: ctx.logger,
    metrics: ctx.metrics,
    accessLog: LOG_LEVEL === 'debug' || LOG_LEVEL === 'info',
  };
}

export function requestTelemetry(options: TelemetryOptions): RequestHandler {
  const { service, logger, metrics, accessLog } = options;
  return (req, res, next) => {
    const started = performance.now();
    const ids = requestIdsFor(req, res);
    // 'close', not 'finish': a client that goes away before its answer was sent is still one
    // request (its write may well be in the log), logged and counted as 499 like nginx does
    res.once('close', () => {
      const seconds = (performance.now() - started) / 1000;
      const operation = (res.locals.operationId as string | undefined) ?? '-';
      const answered = res.locals[ANSWERED_STATUS] as number | undefined;
      const cut = wasCutAtShutdown(res);
      const status = res.writableFinished
        ? (answered ?? res.statusCode)
        : cut
          ? CUT_AT_SHUTDOWN
          : CLIENT_CLOSED;
      metrics.httpDuration.observe(
        { service, operation, method: req.method, status: String(status) },
        seconds,
      );
      if (!accessLog) return;
      // the path only: a query string may carry an authorization code
      logger.info('request', {
        ...ids,
        service,
        operation,
        method: req.method,
        path: loggedPath(req.path),
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        caller: res.locals.caller,
        ...(cut ? { cut: 'shutdown' } : {}),
      });
    });
    next();
  };
}

/**
 * The server's `clientError` handler `answer`, with the access line and the request metric of
 * what it answered: a request node:http refused never reaches the app, so `requestTelemetry`
 * never sees it. Nothing of the request was parsed: no method, path or correlation id; the
 * parser's error code says what was wrong. Its duration is recorded as 0: node:http does not say
 * when the refused request began.
 */
export function clientErrorTelemetry(
  options: TelemetryOptions,
  answer: ServedApp['onClientError'],
): ServedApp['onClientError'] {
  const { service, logger, metrics, accessLog } = options;
  return (error, socket: Duplex) => {
    const status = answer(error, socket);
    // the client was gone: no request to count, as a connection closed before one arrived
    if (status === undefined) return status;
    metrics.httpDuration.observe(
      { service, operation: UNPARSED, method: '-', status: String(status) },
      0,
    );
    if (accessLog) {
      logger.info('request', { service, operation: UNPARSED, status, code: error.code });
    }
    return status;
  };
}
