import type { Decider } from '../shared/decider.js';
import { decideToken, type TokenCommand } from './decide.js';
import type { TokenEvent } from './events.js';
import { evolveToken, initialTokenState, type TokenState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './state.js';

export const tokenDecider: Decider<TokenState, TokenCommand, TokenEvent> = {
  initialState: initialTokenState,
  evolve: evolveToken,
  decide: decideToken,
};

export const tokenStreamId = (tokenId: string): string => `token-${tokenId}`;
