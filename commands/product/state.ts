import type { ProductEvent, Visibility } from './events.js';

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
    };

export const initialProductState = (): ProductState => ({ status: 'absent' });

export function evolveProduct(state: ProductState, event: ProductEvent): ProductState {
  if (event.type === 'ProductCreated') {
    return { status: 'active', ...event.data, nextItemNumber: 1, allocations: {} };
  }
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'ProductRenamed':
      return { ...state, name: event.data.name };
    case 'ProductVisibilityChanged':
      return { ...state, visibility: event.data.visibility };
    case 'ItemNumberAllocated':
      return {
        ...state,
        nextItemNumber: Math.max(state.nextItemNumber, event.data.number + 1),
        allocations: { ...state.allocations, [event.data.submissionId]: event.data.number },
      };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
