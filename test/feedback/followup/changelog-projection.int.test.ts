import { expect } from 'chai';
import { changelogStreamId } from '../../../commands/changelog/index.js';
import { changelogProjector } from '../../../projections/changelog/projector.js';
import { listChangelog } from '../../../projections/changelog/queries.js';
import { eventLog } from '../../support/notes-events.js';
import { openTestStores, type TestStores } from '../../support/stores.js';

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
      add(
        changelogStreamId('w1', 'ACME-1'),
        'ChangelogEntryPublished',
        {
          entryId: 'chg-ACME-1',
          workspaceId: 'w1',
          productKey: 'ACME',
          itemKey: 'ACME-1',
          title: 'One',
          itemIds: ['ACME-1'],
          ...fields,
        },
        10,
      );
      add(
        changelogStreamId('w1', 'ACME-2'),
        'ChangelogEntryPublished',
        {
          entryId: 'chg-ACME-2',
          workspaceId: 'w1',
          productKey: 'ACME',
          itemKey: 'ACME-2',
          title: 'Two',
          itemIds: ['ACME-2', 'ACME-3'],
          ...fields,
        },
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
      add(
        changelogStreamId('w1', 'ACME-1'),
        'ChangelogEntryPublished',
        {
          entryId: 'chg-ACME-1',
          workspaceId: 'w1',
          productKey: 'ACME',
          itemKey: 'ACME-1',
          title: 'One',
          body: 'Done.\n\nAlso answers: Two (ACME-2); Three (ACME-3).\n\nRequested by 3 people.',
          itemIds: ['ACME-1', 'ACME-2', 'ACME-3'],
          requestedByNames: [],
          requestedByCount: 3,
        },
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
});
