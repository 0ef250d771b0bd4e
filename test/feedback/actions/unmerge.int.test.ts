/**
 * Unmerge converges after a crash like the merge does (DESIGN.md "Operations that touch several
 * aggregates": "Never a half-applied merge"; issue 15: "Merges must stay crash-convergent"). The
 * survivor gives the item back first, then the item takes itself back; a crash between the two
 * is completed by a retry, by completePendingUnmerges at start-up, or by merging the item again.
 */
import { expect } from 'chai';
import { itemStreamId } from '../../../commands/item/index.js';
import { getItem, listItems } from '../../../projections/items/index.js';
import {
  addPlusOne,
  completePendingUnmerges,
  mergeItems,
  unmergeItems,
} from '../../../src/feedback/actions/index.js';
import { countEvents, ctx, SimulatedCrash, type World, withWorld } from './harness.js';
import { seedBoard, submitAs } from './seed.js';

/** ACME-1 by ann; ACME-2 by bo with a +1 from cy; ACME-2 merged into ACME-1; di +1s ACME-2. */
async function mergedBoard(world: World) {
  const { workspaceId } = await seedBoard(world);
  const deps = { commandHandler: world.handler, eventStore: world.events };
  await submitAs(world, workspaceId, 'ann@x.io');
  await submitAs(world, workspaceId, 'bo@x.io', 'bo files this');
  const cy = (await submitAs(world, workspaceId, 'cy@x.io', 'cy')).personId;
  const di = (await submitAs(world, workspaceId, 'di@x.io', 'di')).personId;
  await addPlusOne(deps, ctx(), { workspaceId, itemKey: 'ACME-2', personId: cy });
  await mergeItems(deps, ctx(), {
    workspaceId,
    productKey: 'ACME',
    survivorKey: 'ACME-1',
    mergedKeys: ['ACME-2'],
  });
  // di's +1 on the merged item lands on the survivor; the unmerge must give it back
  await addPlusOne(deps, ctx(), { workspaceId, itemKey: 'ACME-2', personId: di });
  return { workspaceId };
}

const unmerge = (workspaceId: string, commandHandler: World['handler']) =>
  unmergeItems({ commandHandler }, ctx(), {
    workspaceId,
    productKey: 'ACME',
    survivorKey: 'ACME-1',
    mergedKeys: ['ACME-2'],
  });

async function restored(world: World, workspaceId: string) {
  await world.caughtUp();
  const item = async (itemKey: string) =>
    (await getItem(world.readStore, { workspaceId, productKey: 'ACME', itemKey }))!;
  const listed = await listItems(world.readStore, { workspaceId, productKey: 'ACME', limit: 50 });
  return {
    survivorPlusOnes: (await item('ACME-1')).item.plusOneCount,
    restoredPlusOnes: (await item('ACME-2')).item.plusOneCount,
    listed: listed.items.map((d) => d.id).sort(),
  };
}

const DONE = {
  survivorPlusOnes: 0,
  restoredPlusOnes: 2, // cy's own, and di's given while merged
  listed: ['ACME-1', 'ACME-2', 'ACME-3', 'ACME-4'],
};

describe('When an unmerge crashes before the item took itself back', () => {
  async function crashed(world: World) {
    const { workspaceId } = await mergedBoard(world);
    const crashing = world.crashingOn(itemStreamId(workspaceId, 'ACME-2'));
    const crash = await unmerge(workspaceId, crashing).catch((e: unknown) => e);
    expect(crash).to.be.instanceOf(SimulatedCrash);
    expect(await countEvents(world.events, 'ItemsUnmerged')).to.equal(1);
    expect(await countEvents(world.events, 'ItemUnmerged')).to.equal(0);
    return workspaceId;
  }

  it('a retry completes it and gives the same answer', async () => {
    await withWorld(async (world) => {
      const workspaceId = await crashed(world);
      const retried = await unmerge(workspaceId, world.handler);
      expect(retried).to.include({ survivorId: 'ACME-1', restoredPeople: 3 });
      expect(await countEvents(world.events, 'ItemsUnmerged')).to.equal(1);
      expect(await countEvents(world.events, 'ItemUnmerged')).to.equal(1);
      expect(await restored(world, workspaceId)).to.deep.equal(DONE);
    });
  });

  it('completePendingUnmerges finishes it when the client never came back, once', async () => {
    await withWorld(async (world) => {
      const workspaceId = await crashed(world);
      await world.caughtUp();
      const deps = {
        commandHandler: world.handler,
        readStore: world.readStore,
        eventStore: world.events,
      };
      expect((await completePendingUnmerges(deps, ctx())).completed).to.equal(1);
      await world.caughtUp();
      expect((await completePendingUnmerges(deps, ctx())).completed).to.equal(0);
      expect(await restored(world, workspaceId)).to.deep.equal(DONE);
    });
  });

  it('merging it again first completes the unmerge, so no +1 is lost', async () => {
    await withWorld(async (world) => {
      const workspaceId = await crashed(world);
      const again = await mergeItems(
        { commandHandler: world.handler, eventStore: world.events },
        ctx(),
        {
          workspaceId,
          productKey: 'ACME',
          survivorKey: 'ACME-1',
          mergedKeys: ['ACME-2'],
        },
      );
      expect(again.mergedPeople).to.equal(3);
      expect(await countEvents(world.events, 'ItemUnmerged')).to.equal(1);
      await world.caughtUp(again.position);
      const found = await getItem(world.readStore, {
        workspaceId,
        productKey: 'ACME',
        itemKey: 'ACME-1',
      });
      expect(found!.item.plusOneCount).to.equal(3);
    });
  });
});
