/**
 * Which redirect URIs a dynamically registered client may use (issue 10 item 8), checked before
 * oidc-provider sees the registration:
 *
 *  - plain http only on a loopback address (RFC 8252 §7.3, RFC 9700 §2.1): `http://evil.example/cb`
 *    is refused with `invalid_redirect_uri`, so an authorization code never travels in clear;
 *  - no `*` in the host or path (RFC 9700 §2.1: redirect URIs are compared as exact strings, so
 *    `https://*.example.com/cb` would match only itself while its client expects a wildcard) and no
 *    user name or password (RFC 3986 §3.2.1: deprecated; a secret in every redirect);
 *  - a client that names no `application_type` and uses a loopback http redirect or a private-use
 *    URI scheme (`com.example.app:/cb`, RFC 8252 §7.1) is registered as a native app, for which
 *    oidc-provider accepts the loopback redirect on any port (§7.3) and the app's own scheme.
 *
 * A `sector_identifier_uri` is refused (`invalid_client_metadata`): it serves pairwise subject
 * identifiers, which these servers do not issue, and oidc-provider fetched it while registering,
 * so anyone could make the server open connections to addresses of their choosing. It no longer
 * fetches one at all (provider.ts, for the clients stored before this refusal); the refusal tells
 * a registrant plainly that the field is not honoured.
 *
 * Everything else (https, fragments, forbidden schemes such as javascript:) is oidc-provider's.
 * Before all of it, the size of what the registration would store (registration-bounds.ts).
 *
 * A client may not register under the service's own name (`client_name` "Feedback board",
 * "feedback-board", "ＦＥＥＤＢＡＣＫ BOARD", "Fеedback board" with a Cyrillic е): the consent page would read "Allow Feedback board
 * to access Feedback board?", which looks first-party. Any other name is the client's own claim,
 * and the consent page shows where the code will be sent (interaction/destination.ts).
 */
import { remove as removeConfusables } from 'confusables';
import type { RequestHandler } from 'express';
import { jsonBody } from '../http/json-body.js';
import { bodyRefusal } from './body-refusal.js';
import { oversizeMetadata, REGISTRATION_BODY_MAX_KB } from './registration-bounds.js';

/** the loopback redirect hosts plain http is allowed on (also how the consent page names them) */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

type Verdict = { ok: true; native: boolean } | { ok: false; reason: string };

export function judgeRedirectUris(uris: unknown): Verdict {
  if (!Array.isArray(uris)) return { ok: true, native: false };
  let native = false;
  for (const uri of uris) {
    if (typeof uri !== 'string' || !URL.canParse(uri)) continue; // oidc-provider's to refuse
    const { protocol, hostname, username, password, pathname } = new URL(uri);
    if (hostname.includes('*') || pathname.includes('*')) {
      return {
        ok: false,
        reason: `${uri}: redirect URIs are compared exactly, so a * is no wildcard; register each one in full`,
      };
    }
    if (username || password) {
      return { ok: false, reason: `${uri}: a redirect URI must not carry a user name or password` };
    }
    if (protocol === 'http:') {
      if (!LOOPBACK_HOSTS.has(hostname)) {
        return {
          ok: false,
          reason: `${uri}: plain http is allowed only for loopback redirects (127.0.0.1, [::1], localhost); use https`,
        };
      }
      native = true;
    } else if (protocol !== 'https:') native = true;
  }
  return { ok: true, native };
}

/**
 * A name as compared for impersonation: compatibility-folded, look-alike letters read as the
 * Latin ones they imitate (a Cyrillic "е" in "Fеedback": the `confusables` package, Unicode's
 * confusables list for English), lower case, letters and digits only.
 */
const nameKey = (name: string) =>
  removeConfusables(name.normalize('NFKC'))
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

export function impersonates(clientName: unknown, serviceName: string): boolean {
  return typeof clientName === 'string' && nameKey(clientName) === nameKey(serviceName);
}

export function registrationPolicy(serviceName: string): RequestHandler[] {
  const json = jsonBody({ limit: REGISTRATION_BODY_MAX_KB * 1024, type: 'application/json' });
  const unreadable = bodyRefusal({ error: 'invalid_client_metadata' });
  const check: RequestHandler = (req, res, next) => {
    const body = req.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return next();
    const oversize = oversizeMetadata(body);
    if (oversize) {
      res.status(400).json(oversize);
      return;
    }
    // pairwise subjects only; oidc-provider fetched this URL while registering, which made the
    // open endpoint connect wherever a stranger asked (inside the network too)
    if (body.sector_identifier_uri !== undefined) {
      res.status(400).json({
        error: 'invalid_client_metadata',
        error_description:
          'sector_identifier_uri is not supported: this server issues public subject identifiers only',
      });
      return;
    }
    const verdict = judgeRedirectUris(body.redirect_uris);
    if (!verdict.ok) {
      res.status(400).json({ error: 'invalid_redirect_uri', error_description: verdict.reason });
      return;
    }
    // the plain name and any language-tagged one (`client_name#fr`, OpenID Dynamic Registration §2.1)
    const names = Object.keys(body).filter(
      (k) => k === 'client_name' || k.startsWith('client_name#'),
    );
    if (names.some((key) => impersonates(body[key], serviceName))) {
      res.status(400).json({
        error: 'invalid_client_metadata',
        error_description: `client_name must not be the service's own name (${serviceName})`,
      });
      return;
    }
    if (verdict.native && body.application_type === undefined) body.application_type = 'native';
    next();
  };
  return [json, unreadable, check];
}
