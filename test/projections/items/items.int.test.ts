import { expect } from 'chai';
import {
  getItem,
  itemsProjector,
  listItems,
  resolveItem,
  toItem,
} from '../../../projections/items/index.js';
import { peopleProjector } from '../../../projections/people/index.js';
import { repliesProjector } from '../../../projections/replies/index.js';
import { workspacesProjector } from '../../../projections/workspaces/index.js';
import { boardLog, captured, itemStream, WS } from '../fixtures.js';
import { EventLog, project, snapshot, withReadStore } from '../harness.js';

const all = [itemsProjector(), repliesProjector(), peopleProjector()];
const projectAll = async (store: Parameters<typeof project>[1], log: EventLog) => {
  for (const p of all) await project(p, store, log.events);
};
const ref = { workspaceId: WS, productKey: 'ACME' };

describe('When item events are projected', () => {
  it('builds the spec Item with counts, tags, via and status time', async () => {
    await withReadStore(async (store) => {
      await projectAll(store, boardLog());
      const found = await getItem(store, { ...ref, itemKey: 'ACME-1' });
      expect(found!.item).to.deep.include({
        id: 'ACME-1',
        productId: 'ACME',
        status: 'planned',
        tagIds: ['ui'],
        plusOneCount: 2, // p2, plus p4 carried over from the merged ACME-2
        replyCount: 2,
        via: 'pat:laptop',
        statusChangedAt: 5_000,
        notifiedAt: null,
        createdBy: 'p1',
        author: { tier: 'email', displayName: 'Name p1', avatar: null },
      });
      expect(Object.keys(found!.item).some((k) => k.startsWith('_'))).to.equal(false);
    });
  });

  it('lists participants with their current names and merged context', async () => {
    await withReadStore(async (store) => {
      await projectAll(store, boardLog());
      const found = await getItem(store, { ...ref, itemKey: 'ACME-1' });
      expect(found!.participants).to.deep.equal([
        { personId: 'p1', role: 'submitted', displayName: 'Ann', avatar: null, context: null },
        { personId: 'p2', role: 'plus-one', displayName: 'Bob', avatar: null, context: null },
        { personId: 'p3', role: 'replied', displayName: 'Cy', avatar: null, context: null },
        {
          personId: 'p4',
          role: 'plus-one',
          displayName: 'Di',
          avatar: null,
          context: 'merged from ACME-2',
        },
      ]);
      expect(found!.replies.map((r) => [r.id, r.parentId])).to.deep.equal([
        ['r1', null],
        ['r2', 'r1'],
      ]);
    });
  });

  it('omits via when the item was posted on the board page', async () => {
    // spec: via is "absent (not empty) when the item was posted on the board's own page"
    await withReadStore(async (store) => {
      await projectAll(store, boardLog());
      const found = await getItem(store, { ...ref, itemKey: 'ACME-2' });
      expect(found!.item).to.not.have.property('via');
    });
  });

  it('leaves merged items out of list_items and filters by status, tag and person', async () => {
    await withReadStore(async (store) => {
      await projectAll(store, boardLog());
      const keys = async (f: object) =>
        (await listItems(store, { ...ref, limit: 50, ...f })).items.map((d) => d.id);
      expect(await keys({})).to.deep.equal(['ACME-1']);
      expect(await keys({ status: 'new' })).to.deep.equal([]);
      expect(await keys({ tag: 'ui' })).to.deep.equal(['ACME-1']);
      expect(await keys({ personId: 'p4' })).to.deep.equal(['ACME-1']);
      expect(await keys({ personId: 'p9' })).to.deep.equal([]);
    });
  });

  it('runs twice and changes nothing', async () => {
    await withReadStore(async (store) => {
      const log = boardLog();
      await projectAll(store, log);
      const before = await Promise.all(all.map((p) => snapshot(p, store)));
      await projectAll(store, log);
      expect(await Promise.all(all.map((p) => snapshot(p, store)))).to.deep.equal(before);
    });
  });
});

describe('When list_items is walked page by page while items arrive', () => {
  it('returns every existing item exactly once, newest first', async () => {
    await withReadStore(async (store) => {
      const log = new EventLog();
      for (let n = 1; n <= 40; n++)
        log.add(itemStream(`ACME-${n}`), captured(`ACME-${n}`, 'p1'), 1_000 + (n % 7));
      await project(itemsProjector(), store, log.events);
      const seen: string[] = [];
      let after: string | null = null;
      let arriving = 41;
      do {
        const page = await listItems(store, { ...ref, limit: 7, after });
        seen.push(...page.items.map((d) => d.id));
        after = page.nextAfter;
        // a new item arrives between pages
        const event = log.add(
          itemStream(`ACME-${arriving}`),
          captured(`ACME-${arriving}`, 'p1'),
          9_000 + arriving,
        );
        arriving++;
        await itemsProjector().apply(event, store);
      } while (after);
      const existing = Array.from({ length: 40 }, (_, i) => `ACME-${i + 1}`);
      expect([...seen].sort()).to.deep.equal([...existing].sort());
      expect(new Set(seen).size).to.equal(seen.length);
      // newest createdAt first (1006: ACME-6, 13, 20, 27, 34), ties by the later number
      expect(seen.slice(0, 3)).to.deep.equal(['ACME-34', 'ACME-27', 'ACME-20']);
    });
  });
});

describe('When an item key is resolved across workspaces', () => {
  it('finds it only in workspaces the user belongs to', async () => {
    await withReadStore(async (store) => {
      const log = boardLog();
      log.add('workspace-w1', {
        type: 'WorkspaceCreated',
        data: { workspaceId: WS, name: 'A', slug: 'acme-co' },
      });
      log.add('workspace-w1', { type: 'MemberAdded', data: { userId: 'u1', role: 'admin' } });
      await project(workspacesProjector(), store, log.events);
      await project(itemsProjector(), store, log.events);
      const matches = await resolveItem(store, { userId: 'u1', itemKey: 'ACME-1' });
      expect(matches.map((m) => [m.slug, m.item.id])).to.deep.equal([['acme-co', 'ACME-1']]);
      expect(await resolveItem(store, { userId: 'u2', itemKey: 'ACME-1' })).to.deep.equal([]);
      expect(toItem((await getItem(store, { ...ref, itemKey: 'ACME-1' }))!.doc).id).to.equal(
        'ACME-1',
      );
    });
  });
});
