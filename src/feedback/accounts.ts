/**
 * The auth server's AccountsPort over the feedback board's user aggregate: signing in with an
 * e-mail finds the maker account with that address or creates one (through the createUser
 * action, so the account is an event like every other write). The new user's id is derived from
 * the address, so two sign-ins racing for the same new address append to the same stream and
 * the loser reads the winner's account instead of creating a twin.
 */
import { createHash } from 'node:crypto';
import { userDecider, userStreamId } from '../../commands/user/index.js';
import { AlreadyExists } from '../../commands/shared/errors.js';
import { cutAt, tidyName } from '../../commands/shared/text.js';
import { userByEmail, userById } from '../../projections/users/queries.js';
import type { AccountsPort } from '../auth/index.js';
import type { CommandHandler } from '../write/command-handler.js';
import type { ReadStore } from '../readstore/types.js';
import { createUser } from './actions/index.js';
import { emailKey } from '../../commands/shared/email.js';

export interface AccountsDeps {
  commandHandler: CommandHandler;
  readStore: ReadStore;
  waitFor(position: bigint): Promise<void>;
  now(): number;
}

export function userIdForEmail(email: string): string {
  const digest = createHash('sha256').update(emailKey(email)).digest('hex');
  return `u_${digest.slice(0, 24)}`;
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
    async findOrCreateByEmail(email, profile, { correlationId }) {
      const normalized = emailKey(email);
      const known = await userByEmail(deps.readStore, normalized);
      if (known) return { id: known.userId };
      const userId = userIdForEmail(normalized);
      try {
        const created = await createUser(
          deps,
          { actor: userId, now: deps.now(), correlationId },
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
