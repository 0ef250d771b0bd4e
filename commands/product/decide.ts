import { AlreadyExists, InvalidArgument, NotFound } from '../shared/errors.js';
import type { ProductEvent, SubmissionFold, Visibility } from './events.js';
import { itemKeyOf, PRODUCT_KEY } from './keys.js';
import { foldedNumber, type ProductState } from './state.js';
import { nameText } from '../shared/text.js';

export type CreateProduct = {
  type: 'CreateProduct';
  data: { workspaceId: string; key: string; name: string; visibility: Visibility };
};
/** update_product: partial; each field that differs becomes one event. */
export type UpdateProduct = {
  type: 'UpdateProduct';
  data: { name?: string; visibility?: Visibility };
};
/**
 * `allowPrivate`: members may file into a private product (CLI import); the public may not.
 * `fold`: the same body from the same person within FOLD_WINDOW_MS is the first submission's
 * item — decided here, where a product's submissions are serialised, so that requests sent
 * together are folded too; such a submission gets no number of its own (foldedNumber).
 */
export type AllocateItemNumber = {
  type: 'AllocateItemNumber';
  data: { submissionId: string; allowPrivate: boolean; fold?: SubmissionFold };
};
export type ProductCommand = CreateProduct | UpdateProduct | AllocateItemNumber;

export function decideProduct(command: ProductCommand, state: ProductState): ProductEvent[] {
  if (command.type === 'CreateProduct') {
    if (state.status !== 'absent') throw new AlreadyExists('product already exists');
    const { workspaceId, key, visibility } = command.data;
    if (!PRODUCT_KEY.test(key)) throw new InvalidArgument('key must be 3 to 5 uppercase letters');
    return [
      {
        type: 'ProductCreated',
        data: { workspaceId, key, name: validName(command.data.name), visibility },
      },
    ];
  }
  if (state.status !== 'active') throw new NotFound('product not found');
  switch (command.type) {
    case 'UpdateProduct': {
      const events: ProductEvent[] = [];
      const { name, visibility } = command.data;
      if (name !== undefined && validName(name) !== state.name) {
        events.push({ type: 'ProductRenamed', data: { name: validName(name) } });
      }
      if (visibility !== undefined && visibility !== state.visibility) {
        events.push({ type: 'ProductVisibilityChanged', data: { visibility } });
      }
      return events;
    }
    case 'AllocateItemNumber': {
      const { submissionId, allowPrivate, fold } = command.data;
      // spec: a private product "answers 404 to everyone outside the workspace; submissions are refused"
      if (state.visibility === 'private' && !allowPrivate) throw new NotFound('product not found');
      if (state.allocations.has(submissionId)) return [];
      if (fold && foldedNumber(state, fold) !== null) return [];
      const number = state.nextItemNumber;
      const itemKey = itemKeyOf(state.key, number);
      return [
        {
          type: 'ItemNumberAllocated',
          data: { number, itemKey, submissionId, ...(fold ? { fold } : {}) },
        },
      ];
    }
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

function validName(name: string): string {
  return nameText(name.trim(), 'name', 200);
}
