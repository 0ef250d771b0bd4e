import type { ProductEvent, Visibility } from './events.js';

/** spec of issue 12: "the same body from the same visitor within 10 minutes is folded" */
export const FOLD_WINDOW_MS = 10 * 60 * 1000;

export type ProductState =
  | { status: 'absent' }
  | {
      status: 'active';
      workspaceId: string;
      key: string;
      name: string;
      visibility: Visibility;
      nextItemNumber: number;
      /** submissionId -> number, so a retried submission gets the number it was given */
      allocations: Record<string, number>;
      /** fold key -> the number and time of the first submission under it, within the window */
      recentFolds: Record<string, { number: number; at: number }>;
    };

export const initialProductState = (): ProductState => ({ status: 'absent' });

export function evolveProduct(state: ProductState, event: ProductEvent): ProductState {
  if (event.type === 'ProductCreated') {
    return { status: 'active', ...event.data, nextItemNumber: 1, allocations: {}, recentFolds: {} };
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
        allocations: { ...state.allocations, [submissionId]: number },
        recentFolds: fold ? withFold(state.recentFolds, fold, number) : state.recentFolds,
      };
    }
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

/** The recent folds with `fold` added, those older than the window before it dropped. */
function withFold(
  recent: Readonly<Record<string, { number: number; at: number }>>,
  fold: { key: string; at: number },
  number: number,
): Record<string, { number: number; at: number }> {
  const kept: Record<string, { number: number; at: number }> = {};
  for (const [key, earlier] of Object.entries(recent)) {
    if (fold.at - earlier.at < FOLD_WINDOW_MS) kept[key] = earlier;
  }
  kept[fold.key] = { number, at: fold.at };
  return kept;
}

/** The number of the first submission `fold` folds into; null when none is within the window. */
export function foldedNumber(
  state: Extract<ProductState, { status: 'active' }>,
  fold: { key: string; at: number },
): number | null {
  const earlier = state.recentFolds[fold.key];
  return earlier && fold.at - earlier.at < FOLD_WINDOW_MS ? earlier.number : null;
}
