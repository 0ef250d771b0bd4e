/**
 * Notes user accounts for the sign-in pages (the auth module's AccountsPort), kept in the event
 * store so they survive restarts without a read model: one stream per account,
 * `notesaccount-<userId>`, holding a single `NotesAccountOpened { userId, email }`.
 *
 * The user id is derived from the normalised e-mail address, so "find or create by e-mail" is a
 * read of one stream, and two concurrent first sign-ins with one address meet on the same stream
 * (the loser of the `no_stream` append simply reads the winner's account). The id becomes the
 * tokens' `sub` and the prefix of every stream of that user's notes, tags and devices.
 */
import type { AccountsPort } from '../auth/index.js';
import { type EventStore, WrongExpectedRevisionError } from '../eventstore/types.js';
import { derivedId } from './actions/deps.js';
import { emailKey } from '../../commands/shared/email.js';

export const accountStreamPrefix = 'notesaccount-';
const OPENED = 'NotesAccountOpened';

interface AccountOpened {
  userId: string;
  email: string;
}

export function notesUserIdFor(email: string): string {
  return derivedId('notes-account', emailKey(email));
}

function isAccountOpened(data: unknown): data is AccountOpened {
  const d = data as Partial<AccountOpened> | null;
  return typeof d?.userId === 'string' && typeof d.email === 'string';
}

export function createNotesAccounts(
  events: EventStore,
  now: () => number = Date.now,
): AccountsPort {
  async function read(userId: string): Promise<AccountOpened | null> {
    // user ids are UUID-shaped; anything else cannot be an account (and must not name a stream)
    if (!/^[0-9a-f-]{36}$/.test(userId)) return null;
    const [first] = await events.readStream(`${accountStreamPrefix}${userId}`, { maxCount: 1 });
    return first?.type === OPENED && isAccountOpened(first.data) ? first.data : null;
  }

  return {
    async findOrCreateByEmail(email, _profile, request) {
      const userId = notesUserIdFor(email);
      if (await read(userId)) return { id: userId };
      try {
        await events.appendToStream(
          `${accountStreamPrefix}${userId}`,
          [
            {
              type: OPENED,
              data: { userId, email: emailKey(email) } satisfies AccountOpened,
              metadata: {
                actor: userId,
                via: 'sign-in',
                occurredAt: now(),
                ...request,
                causationId: null,
              },
            },
          ],
          { expectedRevision: 'no_stream' },
        );
      } catch (error) {
        // a concurrent first sign-in with the same address opened it: same account
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      }
      return { id: userId };
    },

    async findById(id) {
      const account = await read(id);
      return account ? { id: account.userId, email: account.email, displayName: null } : null;
    },
  };
}
