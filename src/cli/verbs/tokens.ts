/** Personal API tokens: the value is printed once, only its hash is stored. */
import { z } from 'zod';
import { InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import { tokensOf } from '../../../projections/tokens/projector.js';
import { createToken, revokeToken } from '../../feedback/actions/index.js';
import { checkFlags } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { requireUser } from '../lookups.js';
import { withSession } from '../session.js';
import { DateFlag, EmailFlag } from '../values.js';

export const createTokenCommand: CliCommand = {
  name: 'create-token',
  usage: '--email E --name N [--expires 2027-01-01]',
  summary: 'create a personal API token for a maker; prints its value ONCE',
  flags: ['email', 'name', 'expires'],
  async run(flags, env) {
    const input = checkFlags(
      z.object({
        email: EmailFlag,
        name: z.string().trim().min(1, { message: 'must not be empty' }).max(100, {
          message: 'at most 100 characters',
        }),
        expires: DateFlag.optional(),
      }),
      flags,
    );
    const { user, created } = await withSession(env.config(), async ({ deps, context }) => {
      const user = await requireUser(deps.readStore, input.email);
      const created = await createToken(deps, context(), {
        ownerId: user.userId,
        name: input.name,
        expiresAt: input.expires ?? null,
      });
      return { user, created };
    });
    // once the token is in the read model (it authenticates from now on): the value on the first
    // line and the whole answer in one write, so `| head -1` takes the token whole
    const expiry = created.expiresAt ? new Date(created.expiresAt).toISOString() : 'never';
    env.out(
      [
        created.token,
        `created token "${created.name}" (${created.tokenId}) for ${user.email}, expires ${expiry}`,
        'The token on the first line is shown once and cannot be recovered; store it now.',
      ].join('\n'),
    );
  },
};

export const revokeTokenCommand: CliCommand = {
  name: 'revoke-token',
  usage: '--email E (--name N | --id TOKEN_ID)',
  summary: "revoke a maker's personal API token; effective on the very next request",
  flags: ['email', 'name', 'id'],
  async run(flags, env) {
    const input = checkFlags(
      z.object({
        email: EmailFlag,
        name: z.string().trim().min(1).optional(),
        id: z.string().trim().min(1).optional(),
      }),
      flags,
    );
    if ((input.name === undefined) === (input.id === undefined)) {
      throw new UsageError('give exactly one of --name and --id');
    }
    await withSession(env.config(), async ({ deps, context }) => {
      const user = await requireUser(deps.readStore, input.email);
      const tokens = await tokensOf(deps.readStore).find({ ownerId: user.userId });
      const matching = tokens.filter((t) =>
        input.id !== undefined ? t.tokenId === input.id : t.name === input.name,
      );
      const live = matching.filter((t) => !t.revoked);
      const what = input.id !== undefined ? `id ${input.id}` : `named "${input.name}"`;
      if (matching.length === 0) throw new NotFound(`${user.email} has no token ${what}`);
      if (live.length === 0) {
        env.out(`token ${what} of ${user.email} was already revoked; nothing changed`);
        return;
      }
      if (live.length > 1) {
        const ids = live.map((t) => t.tokenId).join(', ');
        throw new InvalidArgument(
          `${live.length} tokens are ${what}; choose one with --id (${ids})`,
        );
      }
      await revokeToken(deps, context(), { tokenId: live[0]!.tokenId, byUserId: user.userId });
      env.out(`revoked token "${live[0]!.name}" (${live[0]!.tokenId}) of ${user.email}`);
    });
  },
};
