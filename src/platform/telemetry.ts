/**
 * Per request: one access-log line (correlation id, operation id, method, path, status,
 * duration, caller label) and the request-duration histogram. Mounted first in each service's
 * Express app, so it sees every request, operations included; the operation registry records
 * the operation id and the caller label on `res.locals`.
 */
import type { RequestHandler } from 'express';
import { ANSWERED_STATUS, correlationIdFor } from '../http/respond.js';
import { wasCutAtShutdown } from './http-server.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

/** The status logged for a request whose client closed the connection before its answer. */
export const CLIENT_CLOSED = 499;
/**
 * The status logged for a request the server cut unanswered when its stop's grace ran out
 * (nginx's 444, "connection closed without response"); its access line says `cut: "shutdown"`.
 */
export const CUT_AT_SHUTDOWN = 444;

export function requestTelemetry(options: {
  service: string;
  logger: Logger;
  metrics: Metrics;
  /** false when the log level is above info: the access line is then not even built */
  accessLog: boolean;
}): RequestHandler {
  const { service, logger, metrics, accessLog } = options;
  return (req, res, next) => {
    const started = performance.now();
    const correlationId = correlationIdFor(req, res);
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
        correlationId,
        service,
        operation,
        method: req.method,
        path: req.path,
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        caller: res.locals.caller,
        ...(cut ? { cut: 'shutdown' } : {}),
      });
    });
    next();
  };
}
