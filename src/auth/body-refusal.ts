/**
 * A request body that a parser of ours refuses before oidc-provider sees it — too large, a charset
 * or Content-Encoding it cannot read, not JSON — answered as the OAuth endpoint answers every other
 * error: an OAuth error object `{"error": <code>, "error_description": …}` (RFC 6749 §5.2, RFC
 * 7009 §2.2.1, RFC 7591 §3.2.2, RFC 9126 §2.3), never the service's REST envelope nor Express's
 * HTML page. The description is the one the REST API gives for the same body (http/errors.ts).
 *
 * Only a parser's own refusal (a 4xx error) is answered here: anything else (a store refusing the
 * per-IP limit's write on a full disk) goes on to the auth router's error answers (unavailable.ts).
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { resolveError } from '../http/errors.js';

export function bodyRefusal(options: {
  /** the endpoint's code for a request it cannot read (registration: `invalid_client_metadata`) */
  error: 'invalid_request' | 'invalid_client_metadata';
  /** PAR answers a body too large 413 (RFC 9126 §2.3); the others 400 as every error (§5.2) */
  tooLargeStatus?: 400 | 413;
}): RequestHandler {
  const refuse: ErrorRequestHandler = (err, _req, res, next) => {
    const status = (err as { status?: unknown } | null)?.status;
    if (typeof status !== 'number' || status < 400 || status >= 500) return next(err);
    const resolved = resolveError(err);
    res
      .status(resolved.kind === 'payload-too-large' ? (options.tooLargeStatus ?? 400) : 400)
      .set('Cache-Control', 'no-store')
      .json({ error: options.error, error_description: resolved.message });
  };
  return refuse as unknown as RequestHandler;
}
