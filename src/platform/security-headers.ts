/**
 * Security headers on every answer of a service (issue 10 item 11), with helmet: a CSP that
 * forbids framing (`frame-ancestors 'none'`, against clickjacking of the sign-in and consent
 * pages) and scripts from elsewhere, `X-Content-Type-Options: nosniff`, `Referrer-Policy:
 * no-referrer` (sign-in URLs carry the interaction id), and HSTS when the base URL is https.
 *
 * Two of helmet's defaults are off on purpose: `form-action 'self'` (browsers apply it to the
 * redirect after the consent form, which goes to the client's redirect URI on another origin)
 * and Cross-Origin-Opener-Policy (it would cut the link between an app and the sign-in popup it
 * opened).
 */
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export function securityHeaders(options: { https: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'frame-ancestors': ["'none'"],
        'form-action': null,
        'upgrade-insecure-requests': options.https ? [] : null,
      },
    },
    crossOriginOpenerPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000 } : false,
  });
}
