/**
 * Open dynamic client registration, limited per client IP with a sliding window kept in the
 * store (src/limits), so several API processes over one store share the count and no burst of
 * twice the limit passes across a clock boundary. Over the limit: 429 with `Retry-After` (seconds
 * until the oldest counted registration leaves the window) and the service's error envelope
 * (feedback: `{error, code: 'resource-exhausted'}`).
 */
import type { Request, RequestHandler } from 'express';
import type { Limits } from '../limits/index.js';
import type { ErrorEnvelope } from './options.js';

/** socket address; with trustProxy, the right-most X-Forwarded-For entry (what our proxy saw) */
export function clientIp(req: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const list = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const last = list.at(-1);
    if (last) return last;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

export function registrationLimiter(deps: {
  limits: Limits;
  /** keeps each service's counters apart */
  name: string;
  max: number;
  windowSeconds: number;
  trustProxy: boolean;
  envelope: ErrorEnvelope;
}): RequestHandler {
  const perIp = deps.limits.limiter(deps.name, {
    kind: 'sliding-window',
    max: deps.max,
    windowSeconds: deps.windowSeconds,
  });
  return async (req, res, next) => {
    const verdict = await perIp.take(clientIp(req, deps.trustProxy));
    if (verdict.allowed) return next();
    res
      .status(429)
      .set('Retry-After', String(verdict.retryAfterSeconds))
      .set('Cache-Control', 'no-store')
      .json(
        deps.envelope(
          `too many client registrations from this address; try again in ${verdict.retryAfterSeconds} s`,
          'resource-exhausted',
        ),
      );
  };
}
