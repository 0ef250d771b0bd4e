/**
 * Signing keys and cookie keys, generated at first start and kept in the read store so tokens and
 * browser sessions outlive a restart, and so several processes over one store sign alike.
 */
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { DuplicateKeyError, type Doc, type ReadStore } from '../../readstore/types.js';

interface KeyDoc extends Doc {
  /** private JWKs, newest first */
  jwks: JWK[];
  cookieKeys: string[];
}

export interface ProviderKeys {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
}

async function generate(): Promise<KeyDoc> {
  const kid = () => randomBytes(8).toString('base64url');
  const es = await generateKeyPair('ES256', { extractable: true });
  const rs = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const esJwk = { ...(await exportJWK(es.privateKey)), alg: 'ES256', use: 'sig', kid: kid() };
  const rsJwk = { ...(await exportJWK(rs.privateKey)), alg: 'RS256', use: 'sig', kid: kid() };
  // RS256 first: it is the algorithm every OIDC client must accept for ID tokens.
  return {
    _id: 'provider-keys',
    jwks: [rsJwk, esJwk],
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}

export async function loadOrCreateKeys(
  readStore: ReadStore,
  collectionName: string,
): Promise<ProviderKeys> {
  const col = readStore.collection<KeyDoc>(collectionName);
  let doc = await col.findOne({ _id: 'provider-keys' });
  if (!doc) {
    const fresh = await generate();
    try {
      await col.insertOne(fresh);
      await readStore.flush();
      doc = fresh;
    } catch (err) {
      // another process won the race: use its keys
      if (!(err instanceof DuplicateKeyError)) throw err;
      doc = await col.findOne({ _id: 'provider-keys' });
      if (!doc) throw err;
    }
  }
  return { jwks: { keys: doc.jwks }, cookieKeys: doc.cookieKeys };
}
