import type { TokenEvent } from '../../commands/token/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { asRecorded } from '../shared/recorded.js';

export interface TokenDoc extends Doc {
  tokenId: string;
  ownerId: string;
  name: string;
  hash: string;
  expiresAt: number | null;
  revoked: boolean;
  createdAt: number;
  revokedAt: number | null;
}

export const TOKENS = 'tokens';
export const tokensOf = (s: ReadStore): Collection<TokenDoc> => s.collection(TOKENS);

export function tokensProjector(): Projector {
  return {
    name: 'tokens',
    collections: [TOKENS],
    filter: { streamPrefixes: ['token-'] },
    async setup(store) {
      await tokensOf(store).createIndex({ keys: { hash: 1 }, name: 'tokens_hash' });
      await tokensOf(store).createIndex({ keys: { ownerId: 1 }, name: 'tokens_owner' });
    },
    async apply(raw, store) {
      const event = asRecorded<TokenEvent>(raw);
      const tokenId = event.streamId.slice('token-'.length);
      const at = event.metadata.occurredAt;
      switch (event.type) {
        case 'TokenCreated': {
          const set = { ...event.data, revoked: false, createdAt: at, revokedAt: null };
          await guardedUpdate(
            tokensOf(store),
            tokenId,
            event.position,
            { $set: set },
            { upsert: true },
          );
          return;
        }
        case 'TokenRevoked':
          await guardedUpdate(tokensOf(store), tokenId, event.position, {
            $set: { revoked: true, revokedAt: at },
          });
          return;
        default: {
          const _exhaustive: never = event;
        }
      }
    },
  };
}
