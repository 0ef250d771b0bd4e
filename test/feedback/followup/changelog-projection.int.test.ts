import { expect } from 'chai';
import { changelogStreamId } from '../../../commands/changelog/index.js';
import { changelogProjector } from '../../../projections/changelog/projector.js';
import { listChangelog } from '../../../projections/changelog/queries.js';
import { eventLog } from '../../support/notes-events.js';
import { openTestStores, type TestStores } from '../../support/stores.js';

/** ChangelogEntryPublished for the entry announcing `key` in w1/ACME, with `fields` over these */
function publishedFor(key: string, fields: Record<string, unknown> = {}) {
  const data = {
    entryId: `chg-${key}`,
    workspaceId: 'w1',
    productKey: 'ACME',
    itemKey: key,
    title: key,
    body: 'Done.',
    itemIds: [key],
    requestedByNames: [],
    requestedByCount: 1,
    ...fields,
  };
  return [changelogStreamId('w1', key), 'ChangelogEntryPublished', data] as const;
}

describe('Changelog projection', () => {
  let stores: TestStores;
  beforeEach(async () => {
    stores = await openTestStores();
  });
  afterEach(() => stores.cleanup());

  describe('When entries are published and revised', () => {
    it('keeps one document per entry, newest first, and running the events twice changes nothing', async () => {
      const projector = changelogProjector();
      await projector.setup?.(stores.readStore);
      const { log, add } = eventLog();
      const fields = { body: 'b', requestedByNames: ['Ada'], requestedByCount: 1 };
      // only a shipped item is announced (draft_changelog_entry refuses any other)
      for (const key of ['ACME-1', 'ACME-2'])
        add(`item-w1.${key}`, 'ItemStatusChanged', { from: 'new', to: 'shipped' }, 5);
      add(...publishedFor('ACME-1', { title: 'One', ...fields }), 10);
      add(
        ...publishedFor('ACME-2', { title: 'Two', itemIds: ['ACME-2', 'ACME-3'], ...fields }),
        20,
      );
      add(
        changelogStreamId('w1', 'ACME-1'),
        'ChangelogEntryRevised',
        { title: 'One, revised' },
        30,
      );
      for (const e of log) await projector.apply(e, stores.readStore);
      const first = await listChangelog(stores.readStore, {
        workspaceId: 'w1',
        productKey: 'ACME',
      });
      for (const e of log) await projector.apply(e, stores.readStore);
      const second = await listChangelog(stores.readStore, {
        workspaceId: 'w1',
        productKey: 'ACME',
      });
      expect(second).to.deep.equal(first);
      expect(first.map((e) => [e.id, e.title, e.updatedAt])).to.deep.equal([
        ['chg-ACME-2', 'Two', 20],
        ['chg-ACME-1', 'One, revised', 30],
      ]);
    });
  });

  describe('When the announced items change after publication', () => {
    // an entry keeps its record but claims nothing false: the unmerged item leaves it, and it is
    // not listed while its item is not shipped; running the events twice changes nothing
    it('shows the entry as it may still be read, the same after a second run', async () => {
      const projector = changelogProjector();
      await projector.setup?.(stores.readStore);
      const { log, add } = eventLog();
      add('item-w1.ACME-1', 'ItemStatusChanged', { from: 'new', to: 'shipped' }, 5);
      add(
        ...publishedFor('ACME-1', {
          body: 'Done.\n\nAlso answers: Two (ACME-2); Three (ACME-3).\n\nRequested by 3 people.',
          itemIds: ['ACME-1', 'ACME-2', 'ACME-3'],
          requestedByCount: 3,
        }),
        10,
      );
      const unmerged = {
        unmerged: [{ itemKey: 'ACME-2', restoredPeople: 1, returnedPlusOnes: [] }],
        removedPeople: [],
        changedRoles: [],
        participants: [],
        plusOnes: [],
      };
      add('item-w1.ACME-1', 'ItemsUnmerged', unmerged, 20);
      const list = () => listChangelog(stores.readStore, { workspaceId: 'w1', productKey: 'ACME' });
      for (const e of log) await projector.apply(e, stores.readStore);
      const first = await list();
      for (const e of log) await projector.apply(e, stores.readStore);
      expect(await list()).to.deep.equal(first);
      expect(first.map((e) => [e.itemIds, e.body])).to.deep.equal([
        [['ACME-1', 'ACME-3'], 'Done.\n\nAlso answers: Three (ACME-3).\n\nRequested by 3 people.'],
      ]);

      const left = add(
        'item-w1.ACME-1',
        'ItemStatusChanged',
        { from: 'shipped', to: 'planned' },
        30,
      );
      await projector.apply(left, stores.readStore);
      await projector.apply(left, stores.readStore);
      expect(await list()).to.deep.equal([]);
    });
  });

  describe('When the announced item is not shipped, in log order, when the entry is published', () => {
    // a status change or a merge can land between draft_changelog_entry's read of the item and
    // its append: the entry must not claim, from its first moment, what is no longer true
    const listed = async () =>
      (await listChangelog(stores.readStore, { workspaceId: 'w1', productKey: 'ACME' })).map(
        (e) => e.id,
      );

    it('is not listed while the item is not shipped, and is listed once it ships again', async () => {
      const projector = changelogProjector();
      await projector.setup?.(stores.readStore);
      const { log, add } = eventLog();
      add('item-w1.ACME-1', 'ItemStatusChanged', { from: 'new', to: 'shipped' }, 5);
      add('item-w1.ACME-1', 'ItemStatusChanged', { from: 'shipped', to: 'planned' }, 8);
      add(...publishedFor('ACME-1'), 10);
      for (const e of log) await projector.apply(e, stores.readStore);
      expect(await listed()).to.deep.equal([]);

      const shipped = add(
        'item-w1.ACME-1',
        'ItemStatusChanged',
        { from: 'planned', to: 'shipped' },
        20,
      );
      await projector.apply(shipped, stores.readStore);
      expect(await listed()).to.deep.equal(['chg-ACME-1']);
    });

    it('is not listed when the item was merged into one not shipped', async () => {
      const projector = changelogProjector();
      await projector.setup?.(stores.readStore);
      const { log, add } = eventLog();
      add('item-w1.ACME-1', 'ItemStatusChanged', { from: 'new', to: 'shipped' }, 5);
      add('item-w1.ACME-1', 'ItemMergedInto', { survivorKey: 'ACME-2' }, 8);
      add(...publishedFor('ACME-1'), 10);
      for (const e of log) await projector.apply(e, stores.readStore);
      expect(await listed()).to.deep.equal([]);
    });
  });

  describe('When the announced item is merged into another after publication', () => {
    // a merged item lives on in its survivor, whose status the board shows for its key: the
    // entry is listed while the survivor is shipped, and follows its own item again once given back
    it('follows the survivor while merged, its own item once unmerged, the same after a second run', async () => {
      const projector = changelogProjector();
      await projector.setup?.(stores.readStore);
      const { log, add } = eventLog();
      const list = async () =>
        (await listChangelog(stores.readStore, { workspaceId: 'w1', productKey: 'ACME' })).map(
          (e) => e.id,
        );
      const step = async (...events: ReturnType<typeof add>[]) => {
        for (const e of events) await projector.apply(e, stores.readStore);
        const first = await list();
        for (const e of log) await projector.apply(e, stores.readStore);
        expect(await list(), 'after running every event again').to.deep.equal(first);
        return first;
      };
      const published = await step(
        add('item-w1.ACME-1', 'ItemStatusChanged', { from: 'new', to: 'shipped' }, 5),
        add(...publishedFor('ACME-1'), 10),
      );
      expect(published).to.deep.equal(['chg-ACME-1']);
      expect(
        await step(add('item-w1.ACME-1', 'ItemMergedInto', { survivorKey: 'ACME-2' }, 20)),
        'merged into ACME-2, which is new',
      ).to.deep.equal([]);
      expect(
        await step(add('item-w1.ACME-2', 'ItemStatusChanged', { from: 'new', to: 'shipped' }, 30)),
        'ACME-2 shipped',
      ).to.deep.equal(['chg-ACME-1']);
      expect(
        await step(
          add('item-w1.ACME-2', 'ItemStatusChanged', { from: 'shipped', to: 'planned' }, 40),
        ),
        'ACME-2 planned again',
      ).to.deep.equal([]);
      expect(
        await step(
          add('item-w1.ACME-1', 'ItemUnmerged', { survivorKey: 'ACME-2', plusOnes: [] }, 50),
        ),
        'ACME-1 given back: it is shipped',
      ).to.deep.equal(['chg-ACME-1']);
    });
  });

  describe('When the item the announced one was merged into is merged in turn', () => {
    // A merged into B, then B into C: A lives on in C, the end of the chain (the board leads A
    // there), so C's status counts; B, merged, keeps the status it had
    it('follows the end of the chain, each merge or unmerge along it, the same after a second run', async () => {
      const projector = changelogProjector();
      await projector.setup?.(stores.readStore);
      const { log, add } = eventLog();
      const list = async () =>
        (await listChangelog(stores.readStore, { workspaceId: 'w1', productKey: 'ACME' })).map(
          (e) => e.id,
        );
      const step = async (...events: ReturnType<typeof add>[]) => {
        for (const e of events) await projector.apply(e, stores.readStore);
        const first = await list();
        for (const e of log) await projector.apply(e, stores.readStore);
        expect(await list(), 'after running every event again').to.deep.equal(first);
        return first;
      };
      const shipped = (key: string, at: number) =>
        add(`item-w1.${key}`, 'ItemStatusChanged', { from: 'new', to: 'shipped' }, at);
      const merged = (key: string, survivorKey: string, at: number) =>
        add(`item-w1.${key}`, 'ItemMergedInto', { survivorKey }, at);
      expect(
        await step(shipped('ACME-1', 5), shipped('ACME-2', 6), add(...publishedFor('ACME-1'), 10)),
      ).to.deep.equal(['chg-ACME-1']);
      expect(await step(merged('ACME-1', 'ACME-2', 20)), 'into ACME-2, shipped').to.deep.equal([
        'chg-ACME-1',
      ]);
      expect(
        await step(merged('ACME-2', 'ACME-3', 30)),
        'ACME-2 into ACME-3, which is new',
      ).to.deep.equal([]);
      expect(
        await step(shipped('ACME-4', 35), merged('ACME-3', 'ACME-4', 40)),
        'ACME-3 into ACME-4, shipped',
      ).to.deep.equal(['chg-ACME-1']);
      expect(
        await step(
          add('item-w1.ACME-4', 'ItemStatusChanged', { from: 'shipped', to: 'planned' }, 50),
        ),
        'ACME-4 planned again',
      ).to.deep.equal([]);
      expect(
        await step(
          add('item-w1.ACME-2', 'ItemUnmerged', { survivorKey: 'ACME-3', plusOnes: [] }, 60),
        ),
        'ACME-2 given back: it is shipped',
      ).to.deep.equal(['chg-ACME-1']);
    });
  });
});
