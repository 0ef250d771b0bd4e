/**
 * Open dynamic client registration, limited per client IP (per-ip-limit.ts). Over the limit: 429
 * with `Retry-After` (seconds until the oldest counted registration leaves the window) and an
 * OAuth error object, as every other refusal of the registration endpoint (RFC 7591 §3.2.2):
 * `{"error": "temporarily_unavailable", "error_description": …}`.
 *
 * RFC 7591 names no code for throttling. `temporarily_unavailable` is RFC 6749's for a server
 * "unable to handle the request due to a temporary overloading" (§4.1.2.1, IANA-registered):
 * oidc-provider has it (errors.TemporarilyUnavailable), the MCP SDK's client reads it as its
 * TemporarilyUnavailableError, openid-client hands it over as a ResponseBodyError with the 429
 * and its response (Retry-After), and this server already answers it for the authorization
 * requests' limit and while the store refuses writes. `slow_down` is RFC 8628's word to a device
 * polling the token endpoint, and the MCP SDK server's `too_many_requests` is registered nowhere.
 * The service's REST envelope (`{error: <sentence>, code}`) was no OAuth error: a client library
 * read its sentence as the error code.
 */
import type { RequestHandler } from 'express';
import type { Limits } from '../limits/index.js';
import { perIpLimit } from './per-ip-limit.js';

export function registrationLimiter(deps: {
  limits: Limits;
  /** keeps each service's counters apart */
  name: string;
  max: number;
  windowSeconds: number;
  trustProxy: boolean;
}): RequestHandler {
  return perIpLimit({
    ...deps,
    refuse: (_req, res, retryAfterSeconds) => {
      res.json({
        error: 'temporarily_unavailable',
        error_description: `too many client registrations from this address; try again in ${retryAfterSeconds} s`,
      });
    },
  });
}
