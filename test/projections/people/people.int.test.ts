import { expect } from 'chai';
import { itemsProjector } from '../../../projections/items/index.js';
import { getPerson, listPeople, peopleProjector } from '../../../projections/people/index.js';
import { boardLog, itemStream, WS } from '../fixtures.js';
import { project, snapshot, withReadStore } from '../harness.js';

describe('When people and their items are projected', () => {
  it('records each person with their role per item, merged items left out', async () => {
    await withReadStore(async (store) => {
      const log = boardLog();
      await project(peopleProjector(), store, log.events);
      await project(itemsProjector(), store, log.events);
      const p2 = await getPerson(store, { workspaceId: WS, personId: 'p2' });
      // p2 +1'd both ACME-1 and ACME-2; ACME-2 was merged into ACME-1
      expect(p2!.items.map((i) => [i.id, i.role, i.status])).to.deep.equal([
        ['ACME-1', 'plus-one', 'planned'],
      ]);
      expect(p2!.openItemCount).to.equal(1);
      expect(p2!.productKeys).to.deep.equal(['ACME']);
      const p4 = await getPerson(store, { workspaceId: WS, personId: 'p4' });
      expect(p4!.items.map((i) => [i.id, i.role])).to.deep.equal([['ACME-1', 'plus-one']]);
      expect(await getPerson(store, { workspaceId: 'other', personId: 'p4' })).to.equal(null);
    });
  });

  it('sets lastContactAt to the latest thing the person did', async () => {
    await withReadStore(async (store) => {
      const log = boardLog();
      const reply = log.add(
        itemStream('ACME-1'),
        {
          type: 'ItemReplied',
          data: {
            replyId: 'r3',
            parentId: null,
            authorKind: 'person',
            authorId: 'p1',
            authorName: null,
            authorAvatar: null,
            body: 'thanks',
          },
        },
        7_000,
      );
      await project(peopleProjector(), store, log.events);
      const p1 = await getPerson(store, { workspaceId: WS, personId: 'p1' });
      expect(p1!.person.lastContactAt).to.equal(reply.metadata.occurredAt);
      const p3 = await getPerson(store, { workspaceId: WS, personId: 'p3' });
      expect(p3!.person).to.include({ displayName: 'Cy', tier: 'email', email: 'p3@x.io' });
    });
  });

  it('pages people with a cursor, each once', async () => {
    await withReadStore(async (store) => {
      await project(peopleProjector(), store, boardLog().events);
      const first = await listPeople(store, { workspaceId: WS, limit: 3 });
      const second = await listPeople(store, { workspaceId: WS, limit: 3, after: first.nextAfter });
      const ids = [...first.people, ...second.people].map((p) => p.id);
      expect(ids.sort()).to.deep.equal(['p1', 'p2', 'p3', 'p4']);
      expect(second.nextAfter).to.equal(null);
    });
  });

  it('runs twice and changes nothing', async () => {
    await withReadStore(async (store) => {
      const log = boardLog();
      const projector = peopleProjector();
      await project(projector, store, log.events);
      const before = await snapshot(projector, store);
      await project(projector, store, log.events);
      expect(await snapshot(projector, store)).to.deep.equal(before);
    });
  });
});
