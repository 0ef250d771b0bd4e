/**
 * Identity-provider ID tokens as bearer credentials, verified with jose against configured trusted
 * issuers. Anything wrong — unknown issuer, bad signature, expired, wrong audience, a JWKS that is
 * unreachable or not a JWKS, an anonymous session — is Unauthenticated, never a 500.
 *
 * Anonymous sessions: a token whose `anonymous` or `is_anonymous` claim is true, or whose `amr`
 * contains `anon` (Firebase/Supabase style), is refused; such sessions may post on public pages only.
 *
 * The e-mail address names an account only when the issuer vouches for it (`email_verified` true,
 * as the upstream sign-in requires): issuers such as Firebase, Auth0 or Supabase sign ID tokens
 * for addresses nobody proved, so an unverified `email` would let anyone who signs up there with a
 * victim's address act as the victim (privacy audit).
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import { Unauthenticated } from './errors.js';

export interface TrustedIssuer {
  issuer: string;
  /** where the issuer's keys are fetched; or `jwks` for keys known in-process */
  jwksUrl?: string;
  jwks?: JSONWebKeySet;
  /** the client id(s) the ID token must be issued to */
  audience: string | string[];
}

export interface VerifiedIdToken {
  userId: string;
  issuer: string;
  /** the address the issuer verified (`email_verified` true); null when it did not say so */
  email: string | null;
  name: string | null;
}

const JWKS_TIMEOUT_MS = 3000;
/**
 * how far the issuer's clock may run from ours, for nbf, exp and iat alike (openid-client's
 * default, as the upstream sign-in uses): with none, an issuer whose clock runs a second fast
 * would now and then have a token refused for its iat as it is used
 */
const CLOCK_TOLERANCE_S = 30;

export function isAnonymous(claims: Record<string, unknown>): boolean {
  const amr = Array.isArray(claims.amr) ? claims.amr : [];
  return claims.anonymous === true || claims.is_anonymous === true || amr.includes('anon');
}

export function createIdTokenVerifier(options: {
  trustedIssuers: TrustedIssuer[];
  now?: () => number;
}) {
  const now = options.now ?? (() => Date.now());
  const keySets = new Map<string, JWTVerifyGetKey>();

  function keysFor(trusted: TrustedIssuer): JWTVerifyGetKey {
    let keys = keySets.get(trusted.issuer);
    if (!keys) {
      if (trusted.jwks) keys = createLocalJWKSet(trusted.jwks);
      else if (trusted.jwksUrl && URL.canParse(trusted.jwksUrl)) {
        keys = createRemoteJWKSet(new URL(trusted.jwksUrl), { timeoutDuration: JWKS_TIMEOUT_MS });
      } else throw new Unauthenticated(`no usable JWKS configured for issuer ${trusted.issuer}`);
      keySets.set(trusted.issuer, keys);
    }
    return keys;
  }

  return async function verifyIdToken(token: string | undefined | null): Promise<VerifiedIdToken> {
    if (!token) throw new Unauthenticated('missing ID token', 'invalid_request');
    let iss: unknown;
    try {
      iss = decodeJwt(token).iss;
    } catch {
      throw new Unauthenticated('not a JWT');
    }
    const trusted = options.trustedIssuers.find((t) => t.issuer === iss);
    if (!trusted) throw new Unauthenticated('ID token from an untrusted issuer');
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, keysFor(trusted), {
        issuer: trusted.issuer,
        audience: trusted.audience,
        currentDate: new Date(now()),
        clockTolerance: CLOCK_TOLERANCE_S,
        // OIDC Core §2: exp is REQUIRED; jose checks it only when present, and an ID token
        // without one would be a credential for ever
        requiredClaims: ['exp'],
        algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA', 'RS384', 'RS512', 'ES384'],
      }));
    } catch (err) {
      if (err instanceof Unauthenticated) throw err;
      const code = (err as { code?: string }).code ?? 'invalid';
      throw new Unauthenticated(`ID token rejected (${code})`);
    }
    // OIDC Core §3.1.3.7: "The iat Claim can be used to reject tokens that were issued too far
    // away from the current time"; jose checks iat only against a maxTokenAge, so one dated
    // ahead (a mis-set clock or a token minted to be used later) is refused here
    if (typeof claims.iat === 'number' && claims.iat > now() / 1000 + CLOCK_TOLERANCE_S)
      throw new Unauthenticated('ID token rejected (issued in the future)');
    if (isAnonymous(claims)) throw new Unauthenticated('anonymous sessions cannot use the API');
    if (typeof claims.sub !== 'string' || claims.sub === '')
      throw new Unauthenticated('ID token without subject');
    return {
      userId: claims.sub,
      issuer: trusted.issuer,
      email:
        typeof claims.email === 'string' && claims.email_verified === true ? claims.email : null,
      name: typeof claims.name === 'string' ? claims.name : null,
    };
  };
}

/** one-shot form for callers without a long-lived verifier (no JWKS caching between calls) */
export function verifyIdToken(
  token: string,
  trustedIssuers: TrustedIssuer[],
): Promise<VerifiedIdToken> {
  return createIdTokenVerifier({ trustedIssuers })(token);
}
