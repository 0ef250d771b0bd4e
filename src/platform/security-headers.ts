/**
 * Security headers (issue 10 item 11), with helmet, in two sets. Operation answers (JSON) get the
 * few that matter for an API — `Content-Security-Policy: default-src 'none'; frame-ancestors
 * 'none'`, `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, HSTS on https —
 * because the full page set more than doubles a small answer on the wire (an A/B of get_item on a
 * shared machine put its cost near 20 %; bench:api did not show it beyond noise). Every other
 * answer (the docs, the sign-in, consent and
 * error pages, the dev mailbox) gets the page set: a CSP that
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

/** The set on every answer, operations included: mount it before the operations. */
export function apiSecurityHeaders(options: { https: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
    },
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000 } : false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
}

/** The set on every answer that is not an operation's: mount it right after the operations. */
export function pageSecurityHeaders(options: { https: boolean }): RequestHandler {
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
