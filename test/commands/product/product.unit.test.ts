import { expect } from 'chai';
import { type ProductEvent, productDecider } from '../../../commands/product/index.js';
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
});
