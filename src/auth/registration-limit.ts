/**
 * Open dynamic client registration, limited per client IP (per-ip-limit.ts). Over the limit: 429
 * with `Retry-After` (seconds until the oldest counted registration leaves the window) and the
 * service's error envelope (feedback: `{error, code: 'resource-exhausted'}`).
 */
import type { RequestHandler } from 'express';
import type { Limits } from '../limits/index.js';
import type { ErrorEnvelope } from './options.js';
import { perIpLimit } from './per-ip-limit.js';

export function registrationLimiter(deps: {
  limits: Limits;
  /** keeps each service's counters apart */
  name: string;
  max: number;
  windowSeconds: number;
  trustProxy: boolean;
  envelope: ErrorEnvelope;
}): RequestHandler {
  return perIpLimit({
    ...deps,
    refuse: (_req, res, retryAfterSeconds) => {
      res.json(
        deps.envelope(
          `too many client registrations from this address; try again in ${retryAfterSeconds} s`,
          'resource-exhausted',
        ),
      );
    },
  });
}
