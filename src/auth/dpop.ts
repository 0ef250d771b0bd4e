/**
 * DPoP at the resource servers (RFC 9449 §4.3, §7.1; issue 10 item 4), with jose. A DPoP-bound
 * access token (its `cnf.jkt` names a key) is accepted only as `Authorization: DPoP <token>`
 * together with a `DPoP` proof that:
 *
 *  - is one JWT of type `dpop+jwt`, signed with an asymmetric algorithm we accept by the public
 *    key in its own `jwk` header;
 *  - names this request: `htm` = the method, `htu` = the URL from the configured base URL and
 *    the path (query and fragment ignored);
 *  - is fresh: `iat` within PROOF_WINDOW_SECONDS of now, either way;
 *  - binds the token: `ath` = base64url(SHA-256(access token)) and the key's thumbprint = `cnf.jkt`;
 *  - is used once: its `jti` is remembered in the store (shared by every API process) for as long
 *    as the proof could pass the `iat` check, and a second use is refused.
 *
 * Any failure is Unauthenticated with `invalid_dpop_proof` (or `invalid_token`) and a DPoP
 * challenge naming the algorithms.
 */
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, EmbeddedJWK, type JWK, jwtVerify } from 'jose';
import { type Doc, isDuplicateKey, type ReadStore } from '../readstore/types.js';
import { Unauthenticated } from './errors.js';

/** the algorithms oidc-provider accepts for proofs at its token endpoint, advertised in discovery */
export const DPOP_ALGS: ('ES256' | 'Ed25519' | 'EdDSA')[] = ['ES256', 'Ed25519', 'EdDSA'];
export const PROOF_WINDOW_SECONDS = 300;
const SWEEP_EVERY_MS = 60_000;

/** How an access token was presented to a resource server. */
export type Presentation =
  | { scheme: 'Bearer' }
  | { scheme: 'DPoP'; proof: string | undefined; method: string; url: string }
  /** RFC 7009: the client revoking its own token needs no proof */
  | { scheme: 'revocation' };

interface SeenProof extends Doc {
  expiresAt: number;
}

export class InvalidDpopProof extends Unauthenticated {
  constructor(message: string) {
    super(message, 'invalid_dpop_proof', 'DPoP');
  }
}

const b64sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

export function createDpopChecker(deps: {
  readStore: ReadStore;
  collection: string;
  now: () => number;
}) {
  const seen = deps.readStore.collection<SeenProof>(deps.collection);
  let lastSweep = 0;

  async function firstUse(jkt: string, jti: string, iat: number): Promise<boolean> {
    const now = deps.now();
    if (now - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = now;
      await seen.deleteMany({ expiresAt: { $lte: now } });
    }
    try {
      await seen.insertOne({
        _id: b64sha256(`${jkt}:${jti}`),
        expiresAt: (iat + PROOF_WINDOW_SECONDS) * 1000 + 1000,
      });
      await deps.readStore.flush();
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** checks the proof of a request carrying the access token `token` bound to `jkt` */
  return async function checkProof(
    token: string,
    jkt: string,
    request: { proof: string | undefined; method: string; url: string },
  ): Promise<void> {
    if (!request.proof) throw new InvalidDpopProof('a DPoP-bound access token needs a DPoP proof');
    let payload: Record<string, unknown>;
    let jwk: JWK;
    try {
      const verified = await jwtVerify(request.proof, EmbeddedJWK, {
        typ: 'dpop+jwt',
        algorithms: DPOP_ALGS,
      });
      payload = verified.payload;
      jwk = verified.protectedHeader.jwk as JWK;
    } catch {
      throw new InvalidDpopProof('the DPoP proof is not a valid dpop+jwt signed by its jwk');
    }
    const { htm, htu, iat, ath, jti } = payload;
    if (typeof jti !== 'string' || jti === '') throw new InvalidDpopProof('DPoP proof without jti');
    if (htm !== request.method) throw new InvalidDpopProof('DPoP proof htm does not match');
    if (typeof htu !== 'string' || !sameResource(htu, request.url)) {
      throw new InvalidDpopProof('DPoP proof htu does not match');
    }
    if (typeof iat !== 'number' || Math.abs(deps.now() / 1000 - iat) > PROOF_WINDOW_SECONDS) {
      throw new InvalidDpopProof('DPoP proof iat is not recent');
    }
    if (ath !== b64sha256(token)) throw new InvalidDpopProof('DPoP proof ath does not match');
    if ((await calculateJwkThumbprint(jwk)) !== jkt) {
      throw new InvalidDpopProof('DPoP proof key is not the key the token is bound to');
    }
    if (!(await firstUse(jkt, jti, iat))) throw new InvalidDpopProof('DPoP proof replayed');
  };
}

/** RFC 9449 §4.3: htu compared without query and fragment */
function sameResource(htu: string, url: string): boolean {
  if (!URL.canParse(htu)) return false;
  const given = new URL(htu);
  const wanted = new URL(url);
  given.search = '';
  given.hash = '';
  wanted.search = '';
  wanted.hash = '';
  return given.href === wanted.href;
}
