/**
 * Open dynamic client registration, rate-limited per client IP with a fixed window kept in the
 * read store (so several API processes over one store share the count). Over the limit: 429 with
 * `retry-after` (seconds to the window's end) and an RFC 7591-style JSON error.
 */
import type { Request, RequestHandler } from 'express';
import type { Doc, ReadStore } from '../readstore/types.js';

interface WindowDoc extends Doc {
  count: number;
  expiresAt: number;
}

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
  readStore: ReadStore;
  collection: string;
  max: number;
  windowSeconds: number;
  trustProxy: boolean;
  now: () => number;
}): RequestHandler {
  const col = deps.readStore.collection<WindowDoc>(deps.collection);
  const windowMs = deps.windowSeconds * 1000;
  let lastSweep = 0;

  return async (req, res, next) => {
    const now = deps.now();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const expiresAt = windowStart + windowMs;
    const _id = `${clientIp(req, deps.trustProxy)}|${windowStart}`;
    await col.updateOne({ _id }, { $inc: { count: 1 }, $max: { expiresAt } }, { upsert: true });
    const doc = await col.findOne({ _id });
    if (now - lastSweep > windowMs) {
      lastSweep = now;
      await col.deleteMany({ expiresAt: { $lte: now } });
    }
    if ((doc?.count ?? 1) > deps.max) {
      res
        .status(429)
        .set('Retry-After', String(Math.max(1, Math.ceil((expiresAt - now) / 1000))))
        .json({
          error: 'too_many_requests',
          error_description: 'too many client registrations from this address; try again later',
        });
      return;
    }
    next();
  };
}
