import { AlreadyExists, InvalidArgument, NotFound } from '../shared/errors.js';
import type { ProductEvent, Visibility } from './events.js';
import { itemKeyOf, PRODUCT_KEY } from './keys.js';
import type { ProductState } from './state.js';
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
export type AllocateItemNumber = {
  type: 'AllocateItemNumber';
  /** members may file into a private product (CLI import); the public may not */
  data: { submissionId: string; allowPrivate: boolean };
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
      const { submissionId, allowPrivate } = command.data;
      // spec: a private product "answers 404 to everyone outside the workspace; submissions are refused"
      if (state.visibility === 'private' && !allowPrivate) throw new NotFound('product not found');
      if (state.allocations[submissionId] !== undefined) return [];
      const number = state.nextItemNumber;
      return [
        {
          type: 'ItemNumberAllocated',
          data: { number, itemKey: itemKeyOf(state.key, number), submissionId },
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
