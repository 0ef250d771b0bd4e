/**
 * The auth server's AccountsPort over the feedback board's user aggregate: signing in with an
 * e-mail finds the maker account with that address or creates one (through the createUser
 * action, so the account is an event like every other write). The new user's id is derived from
 * the address, so two sign-ins racing for the same new address append to the same stream and
 * the loser reads the winner's account instead of creating a twin.
 *
 * The id reaches webhook receivers and API answers, so it is keyed (an HMAC under the
 * deployment's secret): seeing it does not confirm a guessed address. Accounts made before that
 * carry the unkeyed hash of their address; when the read model does not know the address yet
 * (lagging, rebuilding) the legacy stream is read before creating, so one address never gets two
 * accounts.
 */
import { userDecider, userStreamId } from '../../commands/user/index.js';
import { AlreadyExists } from '../../commands/shared/errors.js';
import { cutAt, tidyName } from '../../commands/shared/text.js';
import { userByEmail, userById } from '../../projections/users/queries.js';
import type { AccountsPort } from '../auth/index.js';
import { type IdKey, legacyDigest } from '../platform/id-keys.js';
import type { CommandHandler } from '../write/command-handler.js';
import type { ReadStore } from '../readstore/types.js';
import { createUser } from './actions/index.js';
import { emailKey } from '../../commands/shared/email.js';

export interface AccountsDeps {
  commandHandler: CommandHandler;
  readStore: ReadStore;
  waitFor(position: bigint): Promise<void>;
  now(): number;
  /** the deployment's key for user ids (idKeyFor(secret, USER_ID_PURPOSE)) */
  userIdKey: IdKey;
}

export const USER_ID_PURPOSE = 'feedback-user-id';

/** The id of a new account of `email`: keyed, so it does not confirm a guessed address. */
export function userIdForEmail(userIdKey: IdKey, email: string): string {
  return `u_${userIdKey(emailKey(email)).slice(0, 24)}`;
}

/** The id accounts of `email` were made with before ids were keyed. */
export function legacyUserIdForEmail(email: string): string {
  return userIdForEmail(legacyDigest, email);
}

/**
 * The name a new account shows: the sign-in profile's (an upstream provider's `name` claim, which
 * its user chose) made into a valid display name — control characters become spaces, at most 200
 * characters cut between code points — or, when nothing visible is left, the address's local part.
 */
export function displayNameFrom(email: string, given?: string | null): string {
  const name = tidyName(cutAt(tidyName(given) ?? '', 200));
  return name ?? tidyName(email.split('@', 1)[0]) ?? email;
}

export function createAccountsPort(deps: AccountsDeps): AccountsPort {
  return {
    async findOrCreateByEmail(email, profile, request) {
      const normalized = emailKey(email);
      const known = await userByEmail(deps.readStore, normalized);
      if (known) return { id: known.userId };
      // a miss costs one more stream read: an account made before ids were keyed
      const legacyId = legacyUserIdForEmail(normalized);
      const legacy = await deps.commandHandler.load(userStreamId(legacyId), userDecider);
      if (legacy.state.status !== 'absent') {
        if (legacy.position !== null) await deps.waitFor(legacy.position);
        return { id: legacyId };
      }
      const userId = userIdForEmail(deps.userIdKey, normalized);
      try {
        const created = await createUser(
          deps,
          { actor: userId, now: deps.now(), ...request },
          {
            userId,
            email: normalized,
            displayName: displayNameFrom(normalized, profile.displayName),
          },
        );
        // the caller's next request must find the account in the read model
        if (created.position !== null) await deps.waitFor(created.position);
        return { id: userId };
      } catch (error) {
        if (!(error instanceof AlreadyExists)) throw error;
        const raced = await deps.commandHandler.load(userStreamId(userId), userDecider);
        if (raced.state.status !== 'absent') return { id: userId };
        const other = await userByEmail(deps.readStore, normalized);
        if (other) return { id: other.userId };
        throw error;
      }
    },
    async findById(id) {
      const user = await userById(deps.readStore, id);
      return user ? { id: user.userId, email: user.email, displayName: user.displayName } : null;
    },
  };
}
