/**
 * The board's product look-up (src/feedback/board/product-lookup.ts) over the real products and
 * workspaces projectors in an in-memory read store, fed as the projection engine feeds them:
 * each event applied, then heard by the versions (versions.ts). The rule: "the version answered
 * goes with the product answered" — a page is cached under that version, so a product read
 * before a change must never be answered with the version after it.
 */
import { expect } from 'chai';
import { productsProjector } from '../../../projections/products/projector.js';
import { workspacesProjector } from '../../../projections/workspaces/projector.js';
import type { RecordedEvent } from '../../../src/eventstore/types.js';
import { createProductLookup } from '../../../src/feedback/board/product-lookup.js';
import { createBoardVersions } from '../../../src/feedback/board/versions.js';
import { createMemoryReadStore } from '../../../src/readstore/embedded/memory.js';
import { interceptIn } from '../../support/intercepted-store.js';

const metadata = { actor: null, occurredAt: 1, correlationId: 'c', causationId: null };

describe('When a product changes while the board looks it up', () => {
  it('answers what it read without a version, and the change with one', async () => {
    const store = createMemoryReadStore();
    const versions = createBoardVersions();
    const projectors = [workspacesProjector(), productsProjector()];
    let position = 0n;
    const apply = async (streamId: string, type: string, data: unknown) => {
      position += 1n;
      const event: RecordedEvent = {
        id: `e${position}`,
        type,
        data,
        metadata,
        streamId,
        revision: 0,
        position,
      };
      for (const projector of projectors) await projector.apply(event, store);
      versions.heard(event);
    };
    await apply('workspace-w1', 'WorkspaceCreated', {
      workspaceId: 'w1',
      name: 'Acme',
      slug: 'acme-co',
    });
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
    const lookup = createProductLookup(store, { readVersion: async () => '0', versions });
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
