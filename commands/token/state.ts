import type { TokenEvent } from './events.js';

interface TokenFacts {
  tokenId: string;
  ownerId: string;
  name: string;
  hash: string;
  expiresAt: number | null;
}

export type TokenState =
  | { status: 'absent' }
  | ({ status: 'active' } & TokenFacts)
  | ({ status: 'revoked' } & TokenFacts);

export const initialTokenState = (): TokenState => ({ status: 'absent' });

export function evolveToken(state: TokenState, event: TokenEvent): TokenState {
  switch (event.type) {
    case 'TokenCreated':
      return { status: 'active', ...event.data };
    case 'TokenRevoked':
      return state.status === 'absent' ? state : { ...state, status: 'revoked' };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
