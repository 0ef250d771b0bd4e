/**
 * One way to limit an endpoint per client IP: a sliding window kept in the store (src/limits), so
 * several API processes over one store share the count and no burst of twice the limit passes
 * across a clock boundary. Each endpoint says how its refusal reads (`refuse`): the registration
 * endpoint in the service's envelope, the authorization endpoint as an OAuth error.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Limits } from '../limits/index.js';

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

export interface PerIpFigures {
  max: number;
  windowSeconds: number;
}

export function perIpLimit(
  deps: PerIpFigures & {
    limits: Limits;
    /** keeps each service's and endpoint's counters apart */
    name: string;
    trustProxy: boolean;
    /** answers a request over the limit: 429, `Retry-After` and the endpoint's error shape */
    refuse(req: Request, res: Response, retryAfterSeconds: number): void;
  },
): RequestHandler {
  const perIp = deps.limits.limiter(deps.name, {
    kind: 'sliding-window',
    max: deps.max,
    windowSeconds: deps.windowSeconds,
  });
  return async (req, res, next) => {
    try {
      const verdict = await perIp.take(clientIp(req, deps.trustProxy));
      if (verdict.allowed) return next();
      res
        .status(429)
        .set('Retry-After', String(verdict.retryAfterSeconds))
        .set('Cache-Control', 'no-store');
      deps.refuse(req, res, verdict.retryAfterSeconds);
    } catch (error) {
      next(error);
    }
  };
}
