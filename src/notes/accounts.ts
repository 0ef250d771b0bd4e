/**
 * Notes user accounts for the sign-in pages (the auth module's AccountsPort), kept in the event
 * store so they survive restarts without a read model: one stream per account,
 * `notesaccount-<userId>`, holding a single `NotesAccountOpened { userId, email }`.
 *
 * The user id is derived from the normalised e-mail address, so "find or create by e-mail" is a
 * read of one stream, and two concurrent first sign-ins with one address meet on the same stream
 * (the loser of the `no_stream` append simply reads the winner's account). The id becomes the
 * access tokens' `sub`, which every OAuth client (a third-party app, an MCP client) can read, and
 * the prefix of every stream of that user's notes, tags and devices.
 *
 * So it is keyed (an HMAC under the deployment's secret, platform/id-keys.ts): seeing it does not
 * confirm a guessed address offline. Accounts opened before carry the unkeyed hash and keep it: a
 * sign-in that finds no account under the keyed id reads the legacy stream before opening one. No
 * account is opened under a legacy id any more, so the two never race for one address.
 */
import type { AccountsPort } from '../auth/index.js';
import { type EventStore, WrongExpectedRevisionError } from '../eventstore/types.js';
import { type IdKey, legacyDigest } from '../platform/id-keys.js';
import { emailKey } from '../../commands/shared/email.js';

export const accountStreamPrefix = 'notesaccount-';
const OPENED = 'NotesAccountOpened';

/** The purpose of the key notes user ids are made under (idKeyFor(secret, NOTES_USER_ID_PURPOSE)). */
export const NOTES_USER_ID_PURPOSE = 'notes-user-id';

interface AccountOpened {
  userId: string;
  email: string;
}

/** The id a new account of `email` gets under `key` (legacyDigest: the id accounts had before). */
export function notesUserIdFor(key: IdKey, email: string): string {
  const hex = key(`notes-account\u0000${emailKey(email)}`);
  // UUID-shaped (version 5 and variant nibbles fixed), as every notes user id has always been
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function isAccountOpened(data: unknown): data is AccountOpened {
  const d = data as Partial<AccountOpened> | null;
  return typeof d?.userId === 'string' && typeof d.email === 'string';
}

export function createNotesAccounts(
  events: EventStore,
  userIdKey: IdKey,
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
      const userId = notesUserIdFor(userIdKey, email);
      if (await read(userId)) return { id: userId };
      // a miss costs one more stream read: an account opened before ids were keyed
      const legacyId = notesUserIdFor(legacyDigest, email);
      if (await read(legacyId)) return { id: legacyId };
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
