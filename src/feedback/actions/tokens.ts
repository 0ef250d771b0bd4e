/**
 * Personal API tokens: `rft_service_` + 256 random bits. The value is returned once and only its
 * SHA-256 is recorded; authentication hashes the presented value and looks it up live
 * (projections/tokens: tokenByHash + isTokenUsable).
 */
import { hash, randomBytes } from 'node:crypto';
import { InvalidArgument } from '../../../commands/shared/errors.js';
import { tokenDecider, tokenStreamId } from '../../../commands/token/index.js';
import { membershipsOfUser } from '../../../projections/workspaces/queries.js';
import {
  type CommandContext,
  type CommandDeps,
  type FeedbackDeps,
  hexIdFor,
  keyedBy,
  refuseCredentialReplay,
} from './deps.js';

export const TOKEN_PREFIX = 'rft_service_';

export function hashToken(value: string): string {
  return hash('sha256', value, 'hex');
}

export async function createToken(
  deps: FeedbackDeps,
  context: CommandContext,
  input: { ownerId: string; name: string; expiresAt?: number | null },
): Promise<{
  tokenId: string;
  token: string;
  name: string;
  expiresAt: number | null;
  position: bigint | null;
}> {
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null && expiresAt <= context.now) {
    throw new InvalidArgument('expiresAt must be in the future');
  }
  const ownerIsMaker = (await membershipsOfUser(deps.readStore, input.ownerId)).length > 0;
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const tokenId = `t${hexIdFor(context, `token\0${input.ownerId}`)}`;
  const result = await deps.commandHandler.handle(
    tokenStreamId(tokenId),
    tokenDecider,
    {
      type: 'CreateToken',
      data: {
        tokenId,
        ownerId: input.ownerId,
        name: input.name,
        hash: hashToken(token),
        expiresAt,
        ownerIsMaker,
      },
    },
    keyedBy(context, { name: input.name, expiresAt }),
  );
  refuseCredentialReplay(result, `the token ${tokenId}`);
  return { tokenId, token, name: input.name.trim(), expiresAt, position: result.position };
}

export async function revokeToken(
  deps: CommandDeps,
  context: CommandContext,
  input: { tokenId: string; byUserId: string },
): Promise<{ revoked: boolean; position: bigint | null }> {
  const result = await deps.commandHandler.handle(
    tokenStreamId(input.tokenId),
    tokenDecider,
    { type: 'RevokeToken', data: { byUserId: input.byUserId } },
    context,
  );
  return { revoked: result.events.length > 0, position: result.position };
}
