import { AlreadyExists, NotFound, PermissionDenied } from '../shared/errors.js';
import type { TokenEvent } from './events.js';
import type { TokenState } from './state.js';
import { nameText } from '../shared/text.js';

export type CreateToken = {
  type: 'CreateToken';
  data: {
    tokenId: string;
    ownerId: string;
    name: string;
    hash: string;
    expiresAt: number | null;
    /** lookup result: the owner belongs to at least one workspace */
    ownerIsMaker: boolean;
  };
};
export type RevokeToken = { type: 'RevokeToken'; data: { byUserId: string } };
export type TokenCommand = CreateToken | RevokeToken;

export function decideToken(command: TokenCommand, state: TokenState): TokenEvent[] {
  switch (command.type) {
    case 'CreateToken': {
      if (state.status !== 'absent') throw new AlreadyExists('token already exists');
      const { ownerIsMaker, ...data } = command.data;
      // spec: "Only makers can create one; an anonymous session or an account with no workspace is refused."
      if (!ownerIsMaker) throw new PermissionDenied('only workspace members can create API tokens');
      const name = data.name.trim();
      nameText(name, 'token name', 100);
      return [{ type: 'TokenCreated', data: { ...data, name } }];
    }
    case 'RevokeToken':
      // someone else's token reads as missing: token ids are never confirmed to strangers
      if (state.status === 'absent' || state.ownerId !== command.data.byUserId) {
        throw new NotFound('token not found');
      }
      return state.status === 'revoked' ? [] : [{ type: 'TokenRevoked', data: {} }];
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}
