/**
 * Issue 12: "One +1 per person per item (toggle); it counts in plusOneCount and makes the visitor
 * a participant." A withdrawn +1 leaves the count, and the person leaves the item's participants
 * and their own item list unless another role (here: a reply) keeps them there.
 */
import { expect } from 'chai';
import type { ItemEvent } from '../../../commands/item/index.js';
import { getItem, itemsProjector, listItems } from '../../../projections/items/index.js';
import { getPerson, peopleProjector } from '../../../projections/people/index.js';
import { repliesProjector } from '../../../projections/replies/index.js';
import type { ReadStore } from '../../../src/readstore/types.js';
import { boardLog, itemStream, WS } from '../fixtures.js';
import { type EventLog, project, snapshot, withReadStore } from '../harness.js';

const all = [itemsProjector(), repliesProjector(), peopleProjector()];
const projectAll = async (store: ReadStore, log: EventLog) => {
  for (const p of all) await project(p, store, log.events);
};
const ref = { workspaceId: WS, productKey: 'ACME' };
const ACME1 = itemStream('ACME-1');

const plusOne = (personId: string): ItemEvent => ({
  type: 'PlusOneAdded',
  data: { personId, addressedTo: 'ACME-1' },
});

/**
 * boardLog (ACME-1: p1 submitted, p2 +1, p3 replied, p4 +1 from the merged ACME-2), then p2
 * withdraws their +1 (their only role there), and p3 gives a +1 and withdraws it (the reply keeps
 * them, now second since p2 left). What the decider would record for each.
 */
function withdrawalsLog(): EventLog {
  const log = boardLog();
  log.add(ACME1, {
    type: 'PlusOneWithdrawn',
    data: { personId: 'p2', addressedTo: 'ACME-1', plusOneAt: null, participant: null },
  });
  log.add(ACME1, plusOne('p3'));
  log.add(ACME1, {
    type: 'PlusOneWithdrawn',
    data: {
      personId: 'p3',
      addressedTo: 'ACME-1',
      plusOneAt: null,
      participant: { at: 1, role: 'replied', context: null },
    },
  });
  return log;
}

describe('When +1s are withdrawn', () => {
  it('counts them no more and keeps only people with another role', async () => {
    await withReadStore(async (store) => {
      await projectAll(store, withdrawalsLog());
      const found = await getItem(store, { ...ref, itemKey: 'ACME-1' });
      expect(found!.item.plusOneCount).to.equal(1); // p4, from the merged ACME-2
      expect(found!.participants.map((p) => [p.personId, p.role, p.context])).to.deep.equal([
        ['p1', 'submitted', null],
        ['p3', 'replied', null],
        ['p4', 'plus-one', 'merged from ACME-2'],
      ]);
      const keys = async (personId: string) =>
        (await listItems(store, { ...ref, limit: 50, personId })).items.map((d) => d.id);
      expect(await keys('p2')).to.deep.equal([]);
      expect(await keys('p3')).to.deep.equal(['ACME-1']);
    });
  });

  it("takes the item off the person's list unless another role keeps it there", async () => {
    await withReadStore(async (store) => {
      await projectAll(store, withdrawalsLog());
      const p2 = await getPerson(store, { workspaceId: WS, personId: 'p2' });
      expect(p2!.items.map((i) => i.id)).to.deep.equal([]);
      const p3 = await getPerson(store, { workspaceId: WS, personId: 'p3' });
      expect(p3!.items.map((i) => [i.id, i.role])).to.deep.equal([['ACME-1', 'replied']]);
    });
  });

  it('counts a +1 given again after the withdrawal', async () => {
    await withReadStore(async (store) => {
      const log = withdrawalsLog();
      log.add(ACME1, plusOne('p2'));
      await projectAll(store, log);
      const found = await getItem(store, { ...ref, itemKey: 'ACME-1' });
      expect(found!.item.plusOneCount).to.equal(2);
      expect(found!.participants.map((p) => p.personId)).to.deep.equal(['p1', 'p3', 'p4', 'p2']);
      const p2 = await getPerson(store, { workspaceId: WS, personId: 'p2' });
      expect(p2!.items.map((i) => [i.id, i.role])).to.deep.equal([['ACME-1', 'plus-one']]);
    });
  });

  it('runs twice and changes nothing', async () => {
    await withReadStore(async (store) => {
      const log = withdrawalsLog();
      log.add(ACME1, plusOne('p2'));
      await projectAll(store, log);
      const before = await Promise.all(all.map((p) => snapshot(p, store)));
      await projectAll(store, log);
      expect(await Promise.all(all.map((p) => snapshot(p, store)))).to.deep.equal(before);
    });
  });

  it('ignores a withdrawal delivered again after the +1 was given anew', async () => {
    // at-least-once delivery: an old event may come again; the later +1 must survive it
    await withReadStore(async (store) => {
      const log = withdrawalsLog();
      log.add(ACME1, plusOne('p2'));
      await projectAll(store, log);
      const before = await Promise.all(all.map((p) => snapshot(p, store)));
      const again = log.events.filter(
        (e) => e.type === 'PlusOneWithdrawn' && (e.data as { personId: string }).personId === 'p2',
      );
      for (const p of all) await project(p, store, again);
      expect(await Promise.all(all.map((p) => snapshot(p, store)))).to.deep.equal(before);
    });
  });
});
