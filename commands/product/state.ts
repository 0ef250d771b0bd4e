import { Map as ImmutableMap } from 'immutable';
import type { ProductEvent, Visibility } from './events.js';
import {
  foldedInto,
  type RecentFolds,
  rememberedFold as remembered,
  withFold,
} from './recent-folds.js';

export { FOLD_WINDOW_MS } from './recent-folds.js';

export type ProductState =
  | { status: 'absent' }
  | {
      status: 'active';
      workspaceId: string;
      key: string;
      name: string;
      visibility: Visibility;
      nextItemNumber: number;
      /**
       * submissionId -> number, so a retried submission gets the number it was given. Persistent:
       * a product takes thousands of items, and copying every allocation per item made folding
       * its stream quadratic (20,000 items took 130 s).
       */
      allocations: ImmutableMap<string, number>;
      /** the first submission under each fold key within the window (recent-folds.ts) */
      recentFolds: RecentFolds;
    };

export const initialProductState = (): ProductState => ({ status: 'absent' });

export function evolveProduct(state: ProductState, event: ProductEvent): ProductState {
  if (event.type === 'ProductCreated') {
    return {
      status: 'active',
      ...event.data,
      nextItemNumber: 1,
      allocations: ImmutableMap(),
      recentFolds: [],
    };
  }
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'ProductRenamed':
      return { ...state, name: event.data.name };
    case 'ProductVisibilityChanged':
      return { ...state, visibility: event.data.visibility };
    case 'ItemNumberAllocated': {
      const { number, submissionId, fold } = event.data;
      return {
        ...state,
        nextItemNumber: Math.max(state.nextItemNumber, number + 1),
        allocations: state.allocations.set(submissionId, number),
        recentFolds: fold
          ? withFold(state.recentFolds, fold.key, { number, at: fold.at })
          : state.recentFolds,
      };
    }
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

/** The number of the first submission `fold` folds into; null when none is within the window. */
export function foldedNumber(
  state: Extract<ProductState, { status: 'active' }>,
  fold: { key: string; at: number },
): number | null {
  return foldedInto(state.recentFolds, fold.key, fold.at);
}

/** The item the newest submission under `key` folded into, whatever its age (recent-folds.ts). */
export function rememberedFold(
  state: Extract<ProductState, { status: 'active' }>,
  key: string,
): number | null {
  return remembered(state.recentFolds, key);
}
