import { expect } from 'chai';
import {
  FOLD_WINDOW_MS,
  foldedNumber,
  type ProductEvent,
  productDecider,
} from '../../../commands/product/index.js';
import { AlreadyExists, InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import { deciderSpec } from '../../support/decider.js';

const given = deciderSpec(productDecider);
const created: ProductEvent = {
  type: 'ProductCreated',
  data: { workspaceId: 'w1', key: 'ACME', name: 'Acme', visibility: 'public' },
};
const allocated = (n: number, submissionId: string): ProductEvent => ({
  type: 'ItemNumberAllocated',
  data: { number: n, itemKey: `ACME-${n}`, submissionId },
});
const create = (key: string, name = 'Acme') =>
  ({
    type: 'CreateProduct',
    data: { workspaceId: 'w1', key, name, visibility: 'public' },
  }) as const;
const allocate = (submissionId: string, allowPrivate = false) =>
  ({ type: 'AllocateItemNumber', data: { submissionId, allowPrivate } }) as const;

describe('When a product is created', () => {
  it('records key, name and visibility', () => {
    given([]).when(create('ACME')).then([created]);
  });
  it('accepts keys of 3 and of 5 letters', () => {
    // spec: "Product key ... regex `^[A-Z]{3,5}$` | 3 to 5 uppercase letters"
    for (const key of ['ABC', 'ABCDE']) {
      given([])
        .when(create(key))
        .then([{ ...created, data: { ...created.data, key } } as ProductEvent]);
    }
  });
  it('refuses a key outside ^[A-Z]{3,5}$', () => {
    given([]).when(create('AC')).thenThrows(InvalidArgument);
    given([]).when(create('ACMEXY')).thenThrows(InvalidArgument);
  });
  it('refuses a name of 201 characters', () => {
    given([])
      .when(create('ACME', 'x'.repeat(201)))
      .thenThrows(InvalidArgument);
  });
  it('refuses to create it twice', () => {
    given([created]).when(create('ACME')).thenThrows(AlreadyExists);
  });
});

describe('When a product is updated', () => {
  it('records a rename and a visibility change', () => {
    given([created])
      .when({ type: 'UpdateProduct', data: { name: 'Acme 2', visibility: 'private' } })
      .then([
        { type: 'ProductRenamed', data: { name: 'Acme 2' } },
        { type: 'ProductVisibilityChanged', data: { visibility: 'private' } },
      ]);
  });
  it('appends nothing when nothing differs', () => {
    given([created])
      .when({ type: 'UpdateProduct', data: { name: 'Acme', visibility: 'public' } })
      .then([]);
  });
  it('refuses an unknown product', () => {
    given([])
      .when({ type: 'UpdateProduct', data: { name: 'x' } })
      .thenThrows(NotFound);
  });
});

describe('When item numbers are allocated', () => {
  it('hands out consecutive numbers', () => {
    given([created, allocated(1, 's1')])
      .when(allocate('s2'))
      .then([allocated(2, 's2')]);
    given([created, allocated(1, 's1')])
      .when(allocate('s2'))
      .thenState((state) => expect(state).to.include({ nextItemNumber: 3 }));
  });
  it('gives a retried submission nothing new', () => {
    given([created, allocated(1, 's1')])
      .when(allocate('s1'))
      .then([]);
  });
  it('refuses a public submission to a private product as not found', () => {
    // spec: private → "submissions are refused"; 404 outside the workspace
    const hidden: ProductEvent = {
      type: 'ProductVisibilityChanged',
      data: { visibility: 'private' },
    };
    given([created, hidden]).when(allocate('s1')).thenThrows(NotFound);
    given([created, hidden])
      .when(allocate('s1', true))
      .then([allocated(1, 's1')]);
  });

  describe('with the same-body fold (issue 12: "the same body from the same visitor within 10 minutes is folded into the first item")', () => {
    const fold = (key: string, at: number) => ({ key, at });
    const folding = (submissionId: string, key: string, at: number) =>
      ({
        type: 'AllocateItemNumber',
        data: { submissionId, allowPrivate: false, fold: fold(key, at) },
      }) as const;
    const allocatedFolding = (n: number, submissionId: string, key: string, at: number) => {
      const event = allocated(n, submissionId);
      return { ...event, data: { ...event.data, fold: fold(key, at) } } as ProductEvent;
    };
    const first = allocatedFolding(1, 's1', 'ann+body', 1_000);

    it('gives a submission under a recent fold key no number of its own', () => {
      given([created, first])
        .when(folding('s2', 'ann+body', 1_000 + FOLD_WINDOW_MS - 1))
        .then([]);
      given([created, first])
        .when(folding('s2', 'ann+body', 2_000))
        .thenState((state) => {
          if (state.status !== 'active') throw new Error('not active');
          expect(foldedNumber(state, fold('ann+body', 2_000))).to.equal(1);
        });
    });
    it('numbers it once the window has passed, or under another key', () => {
      given([created, first])
        .when(folding('s2', 'ann+body', 1_000 + FOLD_WINDOW_MS))
        .then([allocatedFolding(2, 's2', 'ann+body', 1_000 + FOLD_WINDOW_MS)]);
      given([created, first])
        .when(folding('s2', 'bo+body', 2_000))
        .then([allocatedFolding(2, 's2', 'bo+body', 2_000)]);
    });
  });
});
