import type { Decider } from '../shared/decider.js';
import { decideProduct, type ProductCommand } from './decide.js';
import type { ProductEvent } from './events.js';
import { evolveProduct, initialProductState, type ProductState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './keys.js';
export * from './state.js';

export const productDecider: Decider<ProductState, ProductCommand, ProductEvent> = {
  initialState: initialProductState,
  evolve: evolveProduct,
  decide: decideProduct,
};

export const productStreamId = (workspaceId: string, key: string): string =>
  `product-${workspaceId}.${key}`;
