/**
 * README, Search: "A process keeps in memory the indexes of the scopes searched last … at most
 * 1000 scopes and 256 MiB of vectors per index (`SEARCH_CACHE_SCOPES`, `SEARCH_CACHE_MIB`;
 * `/readyz` and `/metrics` show what it holds)". An operator sizes the caches by configuration
 * and sees what a process holds without reading its memory graph.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

interface Held {
  loadedScopes: number;
  loadedVectorBytes: number;
}
interface Ready {
  search: { indexes?: { items: Held; people: Held } };
}

describe('search caches bounded by configuration (feedback)', function () {
  this.timeout(60_000);
  let h: FeedbackHarness;
  const makers: Maker[] = [];
  before(async () => {
    h = await startFeedback({ env: { SEARCH_CACHE_SCOPES: '2' } });
    for (const body of ['Dark mode please', 'Export to CSV', 'Crash on upload']) {
      const maker = await h.createMaker();
      await h.createProduct(maker.home, { key: 'ACME', name: 'Acme' });
      await h.submit(maker.home, 'ACME', { body, email: 'p@example.com' });
      makers.push(maker);
    }
  });
  after(() => h.stop());

  const itemsHeld = async (): Promise<Held> => {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const report = (await (await fetch(`${h.url}/readyz`)).json()) as Ready;
      if (report.search.indexes) return report.search.indexes.items;
      expect(Date.now(), JSON.stringify(report.search)).to.be.below(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('keeps at most SEARCH_CACHE_SCOPES workspaces loaded, and /readyz and /metrics say so', async () => {
    for (const [i, maker] of makers.entries()) {
      const res = await h
        .api(maker.token)
        .get(`/v1/workspaces/${maker.home.slug}/products/ACME/items/search?q=theme`);
      expect(res.status).to.equal(200);
      // each search loads its workspace; the third drops the least recently searched one
      const held = await itemsHeld();
      expect(held.loadedScopes, `after ${i + 1} searches`).to.equal(Math.min(i + 1, 2));
      expect(held.loadedVectorBytes).to.be.above(0);
    }
    const held = await itemsHeld();
    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    expect(metrics).to.include(`search_loaded_scopes{index="items"} ${held.loadedScopes}\n`);
    expect(metrics).to.include(
      `search_loaded_vector_bytes{index="items"} ${held.loadedVectorBytes}\n`,
    );
  });
});
