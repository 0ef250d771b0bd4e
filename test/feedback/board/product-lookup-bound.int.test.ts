/**
 * The board's product look-up is shared by all tenants (h142 item 1): "a busy tenant's views
 * push another board's pages out". Rule: addresses no public product has are remembered apart
 * from real boards, so any number of made-up addresses never evicts a board's product.
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

describe('The board’s product look-up, asked for many made-up addresses', () => {
  it('still answers a real board from memory', async () => {
    const store = createMemoryReadStore();
    const versions = createBoardVersions();
    const projectors = [workspacesProjector(), productsProjector()];
    let position = 0n;
    const apply = async (streamId: string, type: string, data: unknown) => {
      position += 1n;
      const event: RecordedEvent = {
        id: `e${position}`,
        ...{ type, data, metadata, streamId, revision: 0, position },
      };
      for (const projector of projectors) await projector.apply(event, store);
      versions.heard(event);
    };
    await apply('workspace-w1', 'WorkspaceCreated', {
      workspaceId: 'w1',
      name: 'A',
      slug: 'acme-co',
    });
    const created = { workspaceId: 'w1', key: 'APP', name: 'App', visibility: 'public' };
    await apply('product-w1.APP', 'ProductCreated', created);
    let reads = 0;
    interceptIn(store, ['products', 'workspaces'], async (_collection, method, proceed) => {
      if (method === 'findOne') reads++;
      return proceed();
    });
    const lookup = createProductLookup(store, { readVersion: async () => '0', versions }, 8);
    expect((await lookup('acme-co', 'APP')).product?.name).to.equal('App');
    for (let i = 0; i < 50; i++) await lookup(`nobody-${i}`, 'APP');
    for (let i = 0; i < 50; i++) await lookup('acme-co', `NO${i}`);
    reads = 0;
    expect((await lookup('acme-co', 'APP')).product?.name).to.equal('App');
    expect(reads, 'store reads for the real board after the made-up addresses').to.equal(0);
  });
});
