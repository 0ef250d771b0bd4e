import { expect } from 'chai';
import { startWorld, type World } from './support/world.js';

describe('list_people over HTTP', () => {
  let world: World;
  const ids: string[] = [];
  before(async () => {
    world = await startWorld();
    for (let i = 0; i < 7; i++) {
      world.advance(1000);
      ids.push((await world.submit({ email: `p${i}@x.io`, name: `P${i}` })).personId);
    }
  });
  after(() => world.stop());

  const list = (qs = '') => world.api().get(`/v1/workspaces/${world.slug}/people${qs}`);

  describe('When walking the pages', () => {
    it('returns every person once, newest first, and a null cursor at the end', async () => {
      // spec "Paging": "pass it back as cursor for the next page. It is null at the end."
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await list(
          `?pageSize=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(res.status).to.equal(200);
        seen.push(...res.body.items.map((p: { id: string }) => p.id));
        cursor = res.body.nextCursor;
        pages++;
        if (pages === 1) {
          // a person arriving mid-walk sorts before the cursor and shifts nothing
          world.advance(1000);
          await world.submit({ email: 'late@x.io', name: 'Late' });
        }
      } while (cursor);
      expect(pages).to.equal(3);
      expect(seen).to.deep.equal([...ids].reverse());
      const first = (await list()).body;
      expect(first.items[0]).to.have.keys([
        'id',
        'tier',
        'displayName',
        'avatar',
        'email',
        'lastContactAt',
        'createdAt',
      ]);
      expect(first.nextCursor).to.equal(null);
    });
  });

  describe('When the cursor or page size is bad', () => {
    it('answers 400 invalid-argument', async () => {
      const page = await list('?pageSize=2');
      const tampered = `${page.body.nextCursor.slice(0, -2)}xx`;
      for (const qs of [`?cursor=${tampered}`, '?pageSize=0', '?pageSize=201', '?pageSize=abc']) {
        const res = await list(qs);
        expect(res.status, qs).to.equal(400);
        expect(res.body.code).to.equal('invalid-argument');
      }
    });
  });
});
