import { expect } from 'chai';
import { itemStreamId } from '../../../commands/item/index.js';
import { FailedPrecondition, InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import { getItem, listItems } from '../../../projections/items/index.js';
import { getProduct } from '../../../projections/products/index.js';
import {
  addPlusOne,
  completePendingMerges,
  mergeItems,
  replyToItem,
} from '../../../src/feedback/actions/index.js';
import { countEvents, ctx, SimulatedCrash, type World, withWorld } from './harness.js';
import { seedBoard, submitAs } from './seed.js';

/** ACME-1 by ann (+1 bo); ACME-2 by bo (+1 ann); ACME-3 by cy (+1 di, reply by cy); ACME-4 by di. */
async function board(world: World) {
  const { workspaceId } = await seedBoard(world);
  const deps = { commandHandler: world.handler };
  const ann = await submitAs(world, workspaceId, 'ann@x.io');
  const bo = await submitAs(world, workspaceId, 'bo@x.io', 'bo files this');
  const cy = await submitAs(world, workspaceId, 'cy@x.io');
  const di = (await submitAs(world, workspaceId, 'di@x.io', 'di')).personId;
  await addPlusOne(deps, ctx(), { workspaceId, itemKey: 'ACME-1', personId: bo.personId });
  await addPlusOne(deps, ctx(), { workspaceId, itemKey: 'ACME-2', personId: ann.personId });
  await addPlusOne(deps, ctx(), { workspaceId, itemKey: 'ACME-3', personId: di });
  await replyToItem(deps, ctx(), {
    workspaceId,
    productKey: 'ACME',
    itemKey: 'ACME-3',
    body: 'same',
    author: { kind: 'person', id: cy.personId, name: 'cy', avatar: null },
  });
  return { workspaceId, people: { ann: ann.personId, bo: bo.personId, cy: cy.personId, di } };
}

const merge = (
  world: World,
  workspaceId: string,
  mergedKeys: string[],
  commandHandler = world.handler,
) =>
  mergeItems({ commandHandler, eventStore: world.events }, ctx(), {
    workspaceId,
    productKey: 'ACME',
    survivorKey: 'ACME-1',
    mergedKeys,
  });

async function refusal(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return null;
}

describe('When items are merged', () => {
  it('the survivor keeps the +1s and the people, each counted once', async () => {
    // spec rule 1: "that item is the survivor and keeps the +1s and the people"
    await withWorld(async (world) => {
      const { workspaceId, people } = await board(world);
      const result = await merge(world, workspaceId, ['ACME-2', 'ACME-3']);
      // new to ACME-1: cy (submitted ACME-3) and di (+1 on ACME-3); ann and bo were already there
      expect(result).to.include({ survivorId: 'ACME-1', mergedPeople: 2 });
      await world.caughtUp(result.position);
      const found = await getItem(world.readStore, {
        workspaceId,
        productKey: 'ACME',
        itemKey: 'ACME-1',
      });
      expect(found!.item.plusOneCount).to.equal(3); // bo, cy, di — ann is the submitter
      expect(found!.participants.map((p) => p.personId).sort()).to.deep.equal(
        Object.values(people).sort(),
      );
      const listed = await listItems(world.readStore, {
        workspaceId,
        productKey: 'ACME',
        limit: 50,
      });
      expect(listed.items.map((i) => i.id)).to.deep.equal(['ACME-4', 'ACME-1']);
      expect((await getProduct(world.readStore, { workspaceId, key: 'ACME' }))!.itemCount).to.equal(
        2,
      );
    });
  });

  it('repeating the same merge answers the same and appends nothing', async () => {
    await withWorld(async (world) => {
      const { workspaceId } = await board(world);
      const first = await merge(world, workspaceId, ['ACME-2']);
      const before = (await world.events.readAll()).length;
      const again = await merge(world, workspaceId, ['ACME-2']);
      expect(again.mergedPeople).to.equal(first.mergedPeople);
      expect((await world.events.readAll()).length).to.equal(before);
    });
  });

  it('refuses merging into itself, an unknown item, or an item merged elsewhere, appending nothing', async () => {
    await withWorld(async (world) => {
      const { workspaceId } = await board(world);
      expect(await refusal(() => merge(world, workspaceId, ['ACME-1']))).to.be.instanceOf(
        InvalidArgument,
      );
      expect(
        await refusal(() => merge(world, workspaceId, ['ACME-2', 'ACME-99'])),
      ).to.be.instanceOf(NotFound);
      expect(await countEvents(world.events, 'ItemMergedInto')).to.equal(0);
      await mergeItems({ commandHandler: world.handler, eventStore: world.events }, ctx(), {
        workspaceId,
        productKey: 'ACME',
        survivorKey: 'ACME-4',
        mergedKeys: ['ACME-2'],
      });
      // issue 3: "merged items can no longer be merged again"
      expect(await refusal(() => merge(world, workspaceId, ['ACME-2']))).to.be.instanceOf(
        FailedPrecondition,
      );
      expect(
        await refusal(() =>
          mergeItems({ commandHandler: world.handler, eventStore: world.events }, ctx(), {
            workspaceId,
            productKey: 'ACME',
            survivorKey: 'ACME-2',
            mergedKeys: ['ACME-3'],
          }),
        ),
      ).to.be.instanceOf(FailedPrecondition);
    });
  });
});

describe('When a merge crashes part way', () => {
  for (const [where, stream] of [
    ['between the merged items', 'ACME-3'],
    ['before the survivor records it', 'ACME-1'],
  ] as const) {
    it(`a retry ${where} completes it and double-counts nobody`, async () => {
      await withWorld(async (world) => {
        const { workspaceId } = await board(world);
        const crashing = world.crashingOn(itemStreamId(workspaceId, stream));
        const crash = await refusal(() =>
          merge(world, workspaceId, ['ACME-2', 'ACME-3'], crashing),
        );
        expect(crash).to.be.instanceOf(SimulatedCrash);
        const retried = await merge(world, workspaceId, ['ACME-2', 'ACME-3']);
        expect(retried.mergedPeople).to.equal(2);
        expect(await countEvents(world.events, 'ItemMergedInto')).to.equal(2);
        expect(await countEvents(world.events, 'ItemsMerged')).to.equal(1);
        await world.caughtUp(retried.position);
        const found = await getItem(world.readStore, {
          workspaceId,
          productKey: 'ACME',
          itemKey: 'ACME-1',
        });
        expect(found!.item.plusOneCount).to.equal(3);
      });
    });
  }

  it('completePendingMerges finishes a merge whose client never retried', async () => {
    await withWorld(async (world) => {
      const { workspaceId } = await board(world);
      const crashing = world.crashingOn(itemStreamId(workspaceId, 'ACME-1'));
      await refusal(() => merge(world, workspaceId, ['ACME-2', 'ACME-3'], crashing));
      await world.caughtUp();
      const deps = {
        commandHandler: world.handler,
        readStore: world.readStore,
        eventStore: world.events,
      };
      const done = await completePendingMerges(deps, ctx());
      expect(done.completed).to.equal(2);
      await world.caughtUp(done.position);
      expect((await completePendingMerges(deps, ctx())).completed).to.equal(0);
      const found = await getItem(world.readStore, {
        workspaceId,
        productKey: 'ACME',
        itemKey: 'ACME-1',
      });
      expect(found!.item.plusOneCount).to.equal(3);
    });
  });

  it('a +1 on a merged item lands on the survivor', async () => {
    await withWorld(async (world) => {
      const { workspaceId } = await board(world);
      await merge(world, workspaceId, ['ACME-2']);
      const eve = await submitAs(world, workspaceId, 'eve@x.io', 'eve');
      const result = await addPlusOne({ commandHandler: world.handler }, ctx(), {
        workspaceId,
        itemKey: 'ACME-2',
        personId: eve.personId,
      });
      expect(result).to.include({ itemKey: 'ACME-1', changed: true });
    });
  });
});
