import { expect } from 'chai';
import {
  getProduct,
  listProducts,
  productsProjector,
} from '../../../projections/products/index.js';
import { boardLog, WS } from '../fixtures.js';
import { project, snapshot, withReadStore } from '../harness.js';

function productLog() {
  const log = boardLog();
  // the product stream comes first in a real log; positions only need to be ordered per document
  const withProduct = new (log.constructor as typeof import('../harness.js').EventLog)();
  withProduct.add(
    `product-${WS}.ACME`,
    {
      type: 'ProductCreated',
      data: { workspaceId: WS, key: 'ACME', name: 'Acme', visibility: 'public' },
    },
    500,
  );
  withProduct.add(`product-${WS}.ACME`, {
    type: 'ItemNumberAllocated',
    data: { number: 1, itemKey: 'ACME-1', submissionId: 's1' },
  });
  withProduct.add(`product-${WS}.ACME`, {
    type: 'ItemNumberAllocated',
    data: { number: 2, itemKey: 'ACME-2', submissionId: 's2' },
  });
  for (const e of log.events) withProduct.add(e.streamId, { type: e.type, data: e.data });
  withProduct.add(`product-${WS}.ACME`, { type: 'ProductRenamed', data: { name: 'Acme Board' } });
  withProduct.add(`product-${WS}.ACME`, {
    type: 'ProductVisibilityChanged',
    data: { visibility: 'private' },
  });
  withProduct.add(
    `product-${WS}.BETA`,
    {
      type: 'ProductCreated',
      data: { workspaceId: WS, key: 'BETA', name: 'Beta', visibility: 'public' },
    },
    600,
  );
  return withProduct;
}

describe('When product events are projected', () => {
  it('builds exactly the spec Product fields', async () => {
    await withReadStore(async (store) => {
      await project(productsProjector(), store, productLog().events);
      expect(await getProduct(store, { workspaceId: WS, key: 'ACME' })).to.deep.equal({
        id: 'ACME',
        name: 'Acme Board',
        visibility: 'private',
        itemCount: 1, // ACME-2 was merged into ACME-1 and left the listing
        nextItemNumber: 3,
        createdAt: 500,
      });
    });
  });

  it("lists a workspace's products by key", async () => {
    await withReadStore(async (store) => {
      await project(productsProjector(), store, productLog().events);
      expect((await listProducts(store, WS)).map((p) => p.id)).to.deep.equal(['ACME', 'BETA']);
      expect(await listProducts(store, 'other')).to.deep.equal([]);
    });
  });

  it('runs twice and changes nothing', async () => {
    await withReadStore(async (store) => {
      const log = productLog();
      const projector = productsProjector();
      await project(projector, store, log.events);
      const before = await snapshot(projector, store);
      await project(projector, store, log.events);
      expect(await snapshot(projector, store)).to.deep.equal(before);
    });
  });
});
