/**
 * README, Search: "at most 1000 scopes and 256 MiB of vectors per index (`SEARCH_CACHE_SCOPES`,
 * `SEARCH_CACHE_MIB`; `/readyz` and `/metrics` show what it holds)" — on the notes service a
 * scope is a user.
 */
import { expect } from 'chai';
import { type NotesE2e, startNotesE2e } from './support.js';

interface Ready {
  search: { indexes?: { notes: { loadedScopes: number; loadedVectorBytes: number } } };
}

describe('notes search caches bounded by configuration', function () {
  this.timeout(60_000);
  let e: NotesE2e;
  before(async () => {
    e = await startNotesE2e({ SEARCH_CACHE_SCOPES: '2' });
  });
  after(() => e.stop());

  it('keeps the indexes of at most SEARCH_CACHE_SCOPES users loaded', async () => {
    for (const [i, who] of ['ann', 'ben', 'cat'].entries()) {
      const api = e.api((await e.signIn(`${who}@example.com`)).token);
      expect(
        (await api('POST', '/v1/notes', { title: 'Boiler', content: 'service' })).status,
      ).to.equal(201);
      await e.service.whenSearchIdle();
      expect((await api('GET', '/v1/notes/search?q=boiler')).status).to.equal(200);
      const report = (await (await fetch(`${e.base}/readyz`)).json()) as Ready;
      const held = report.search.indexes!.notes;
      expect(held.loadedScopes, `after ${i + 1} users searched`).to.equal(Math.min(i + 1, 2));
      expect(held.loadedVectorBytes).to.be.above(0);
    }
  });
});
