import type { Decider } from '../shared/decider.js';
import { decideItem, type ItemCommand } from './decide.js';
import type { ItemEvent } from './events.js';
import { evolveItem, initialItemState, type ItemState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './merge.js';
export * from './merge-chain.js';
export * from './notify.js';
export * from './people.js';
export * from './roster.js';
export * from './state.js';
export * from './streams.js';
export * from './title.js';
export * from './unmerge.js';
export * from './upcasters.js';

export const itemDecider: Decider<ItemState, ItemCommand, ItemEvent> = {
  initialState: initialItemState,
  evolve: evolveItem,
  decide: decideItem,
};
