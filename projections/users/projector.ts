import type { UserEvent } from '../../commands/user/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { asRecorded } from '../shared/recorded.js';

export interface UserDoc extends Doc {
  userId: string;
  email: string;
  displayName: string;
  createdAt: number;
}

export const USERS = 'users';
export const usersOf = (store: ReadStore): Collection<UserDoc> => store.collection<UserDoc>(USERS);

export function usersProjector(): Projector {
  return {
    name: 'users',
    collections: [USERS],
    filter: { streamPrefixes: ['user-'] },
    async setup(store) {
      await usersOf(store).createIndex({ keys: { email: 1 }, name: 'users_email' });
    },
    async apply(raw, store) {
      const event = asRecorded<UserEvent>(raw);
      switch (event.type) {
        case 'UserCreated':
          await guardedUpdate(
            usersOf(store),
            event.data.userId,
            event.position,
            { $set: { ...event.data, createdAt: event.metadata.occurredAt } },
            { upsert: true },
          );
          return;
        default: {
          const _exhaustive: never = event.type;
        }
      }
    },
  };
}
