import type { ReadStore } from '../../src/readstore/types.js';
import { type TokenDoc, tokensOf } from './projector.js';

/** Looked up on every request, so a revocation applies to the very next one. */
export function tokenByHash(store: ReadStore, hash: string): Promise<TokenDoc | null> {
  return tokensOf(store).findOne({ hash });
}

/** Usable = not revoked and not past its expiry ("stops working at its expiry"). */
export function isTokenUsable(token: TokenDoc, now: number): boolean {
  return !token.revoked && (token.expiresAt === null || now < token.expiresAt);
}

/** A user's tokens for the management list; never the hash. */
export async function tokensOfOwner(
  store: ReadStore,
  ownerId: string,
): Promise<Omit<TokenDoc, 'hash' | '_id'>[]> {
  const docs = await tokensOf(store).find({ ownerId }, { sort: { createdAt: 1, _id: 1 } });
  return docs.map(({ _id, hash, _pos, ...rest }) => rest);
}
