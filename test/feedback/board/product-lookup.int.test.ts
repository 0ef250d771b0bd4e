/**
 * The board's product look-up (src/feedback/board/product-lookup.ts) over the real products and
 * workspaces projectors in an in-memory read store, fed as the projection engine feeds them:
 * each event applied, then heard by the versions (versions.ts). The rule: "the version answered
 * goes with the product answered" — a page is cached under that version, so a product read
 * before a change must never be answered with the version after it.
 */
import { expect } from 'chai';
import { createProductLookup } from '../../../src/feedback/board/product-lookup.js';
import { nothingPending } from '../../../src/platform/catch-up.js';
import { interceptIn } from '../../support/intercepted-store.js';
import { projectedBoards } from './projected-boards.js';

describe('When a product changes while the board looks it up', () => {
  it('answers what it read without a version, and the change with one', async () => {
    const { store, versions, apply, board } = projectedBoards();
    await board('w1', 'acme-co', []);
    const created = { workspaceId: 'w1', key: 'APP', name: 'Old name', visibility: 'public' };
    await apply('product-w1.APP', 'ProductCreated', created);
    // the rename is applied (and heard) after the look-up read the product, before it answers
    let renameDuringRead = true;
    interceptIn(store, ['products'], async (_collection, method, proceed) => {
      const read = await proceed();
      if (method === 'findOne' && renameDuringRead) {
        renameDuringRead = false;
        await apply('product-w1.APP', 'ProductRenamed', { name: 'New name' });
      }
      return read;
    });
    const lookup = createProductLookup(store, { pending: nothingPending, versions });
    const during = await lookup('acme-co', 'APP');
    const after = await lookup('acme-co', 'APP');
    expect(after.product?.name).to.equal('New name');
    // answered with the version after the rename, the old name was cached as the page of the
    // new version and served until the next change: "expected '3' to equal null"
    expect(during.product?.name).to.equal('Old name');
    expect(during.version).to.equal(null);
    expect(after.version).to.not.equal(null);
  });
});
