/**
 * Merges that race other merges. A merge marks its duplicates "merged into" the survivor, then
 * the survivor records them; another request may merge the survivor away in between. DESIGN.md:
 * "Never a half-applied merge" — no item may stay marked into an item that can never record it.
 */
import { expect } from 'chai';
import {
  type ItemState,
  itemDecider,
  itemStreamId,
  plusOnesIn,
} from '../../../commands/item/index.js';
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import { listItems } from '../../../projections/items/index.js';
import {
  addPlusOne,
  completePendingMerges,
  mergeItems,
} from '../../../src/feedback/actions/index.js';
import {
  countEvents,
  ctx,
  pausingBefore,
  SimulatedCrash,
  type World,
  withWorld,
} from './harness.js';
import { seedBoard, submitAs } from './seed.js';

async function fourItems(world: World): Promise<string> {
  const { workspaceId } = await seedBoard(world);
  for (const who of ['ann', 'bo', 'cy', 'di']) await submitAs(world, workspaceId, `${who}@x.io`);
  return workspaceId;
}

function merge(
  world: World,
  workspaceId: string,
  survivorKey: string,
  mergedKeys: string[],
  commandHandler = world.handler,
) {
  return mergeItems({ commandHandler, eventStore: world.events }, ctx(), {
    workspaceId,
    productKey: 'ACME',
    survivorKey,
    mergedKeys,
  });
}

async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    return error;
  }
}

/** a promise and the function that resolves it */
function opening(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

async function stateOf(world: World, workspaceId: string, key: string): Promise<ItemState> {
  return (await world.handler.load(itemStreamId(workspaceId, key), itemDecider)).state;
}

async function listed(world: World, workspaceId: string): Promise<string[]> {
  await world.caughtUp();
  const page = await listItems(world.readStore, { workspaceId, productKey: 'ACME', limit: 50 });
  return page.items.map((item) => item.id).sort();
}

describe('When a merge races another merge', () => {
  it('merging 2 into 1 while 1 goes into 2: one of them wins, nothing is lost', async () => {
    await withWorld(async (world) => {
      const workspaceId = await fourItems(world);
      const stream = (key: string) => itemStreamId(workspaceId, key);
      const reverseMarked = opening();
      const forwardMarked = opening();
      let reverse: Promise<unknown> = Promise.resolve();
      // both pass their checks; the reverse marks ACME-1, the forward marks ACME-2; the
      // reverse then tries to record on ACME-2, while the forward waits to record on ACME-1
      const reverseHandler = pausingBefore(world.handler, stream('ACME-2'), 'RecordMerge', () => {
        reverseMarked.open();
        return forwardMarked.opened;
      });
      const forwardHandler = pausingBefore(
        pausingBefore(world.handler, stream('ACME-1'), 'RecordMerge', () => {
          forwardMarked.open();
          return reverse;
        }),
        stream('ACME-2'),
        'MarkMergedInto',
        () => {
          reverse = outcome(() => merge(world, workspaceId, 'ACME-2', ['ACME-1'], reverseHandler));
          return reverseMarked.opened;
        },
      );
      const forward = await outcome(() =>
        merge(world, workspaceId, 'ACME-1', ['ACME-2'], forwardHandler),
      );
      // the reverse found its survivor marked away: it gave ACME-1 back and was refused …
      const refused = await reverse;
      expect(refused).to.be.instanceOf(FailedPrecondition);
      expect((refused as Error).message).to.equal(
        'ACME-2 was merged into ACME-1 meanwhile; nothing was merged',
      );
      // … so the forward merge recorded on an ACME-1 that is open again
      expect(forward).to.include({ survivorId: 'ACME-1' });
      expect((await stateOf(world, workspaceId, 'ACME-1')).status).to.equal('open');
      expect(await stateOf(world, workspaceId, 'ACME-2')).to.include({
        status: 'merged',
        survivorKey: 'ACME-1',
      });
      expect(await listed(world, workspaceId)).to.deep.equal(['ACME-1', 'ACME-3', 'ACME-4']);
    });
  });

  it('merging 3 into 2 while 2 goes into 1: the first is refused and 3 is listed again', async () => {
    await withWorld(async (world) => {
      const workspaceId = await fourItems(world);
      const paused = pausingBefore(
        world.handler,
        itemStreamId(workspaceId, 'ACME-2'),
        'RecordMerge',
        () => merge(world, workspaceId, 'ACME-1', ['ACME-2']),
      );
      const refused = await outcome(() => merge(world, workspaceId, 'ACME-2', ['ACME-3'], paused));
      expect(refused).to.be.instanceOf(FailedPrecondition);
      expect((refused as Error).message).to.equal(
        'ACME-2 was merged into ACME-1 meanwhile; nothing was merged',
      );
      expect((await stateOf(world, workspaceId, 'ACME-3')).status).to.equal('open');
      expect(await countEvents(world.events, 'ItemUnmerged')).to.equal(1);
      expect(await listed(world, workspaceId)).to.deep.equal(['ACME-1', 'ACME-3', 'ACME-4']);
      // and it can be merged where its duplicate went
      const again = await merge(world, workspaceId, 'ACME-1', ['ACME-3']);
      expect(again.mergedPeople).to.equal(1);
    });
  });

  it('a duplicate merged elsewhere meanwhile: the ones marked before it are recorded, not left half-merged', async () => {
    await withWorld(async (world) => {
      const workspaceId = await fourItems(world);
      const paused = pausingBefore(
        world.handler,
        itemStreamId(workspaceId, 'ACME-3'),
        'MarkMergedInto',
        () => merge(world, workspaceId, 'ACME-4', ['ACME-3']),
      );
      const refused = await outcome(() =>
        merge(world, workspaceId, 'ACME-1', ['ACME-2', 'ACME-3'], paused),
      );
      expect(refused).to.be.instanceOf(FailedPrecondition);
      expect((refused as Error).message).to.equal(
        'ACME-3 was already merged into ACME-4; ACME-2 merged into ACME-1',
      );
      const survivor = await stateOf(world, workspaceId, 'ACME-1');
      expect(survivor.status === 'open' && survivor.merges).to.have.property('ACME-2');
      expect(await listed(world, workspaceId)).to.deep.equal(['ACME-1', 'ACME-4']);
      const deps = {
        commandHandler: world.handler,
        readStore: world.readStore,
        eventStore: world.events,
      };
      expect((await completePendingMerges(deps, ctx())).completed).to.equal(0);
    });
  });

  it('completePendingMerges gives back the items of an interrupted merge whose survivor was merged away', async () => {
    await withWorld(async (world) => {
      const workspaceId = await fourItems(world);
      const crashing = world.crashingOn(itemStreamId(workspaceId, 'ACME-2'));
      const crash = await outcome(() => merge(world, workspaceId, 'ACME-2', ['ACME-3'], crashing));
      expect(crash).to.be.instanceOf(SimulatedCrash);
      await merge(world, workspaceId, 'ACME-1', ['ACME-2']);
      await world.caughtUp();
      const deps = {
        commandHandler: world.handler,
        readStore: world.readStore,
        eventStore: world.events,
      };
      const done = await completePendingMerges(deps, ctx());
      expect(done.completed).to.equal(0);
      expect((await stateOf(world, workspaceId, 'ACME-3')).status).to.equal('open');
      expect(await listed(world, workspaceId)).to.deep.equal(['ACME-1', 'ACME-3', 'ACME-4']);
    });
  });

  it('a +1 that races the merge of its item lands on the survivor instead of being refused', async () => {
    // a +1 on a merged item "is recorded on the survivor" (plus-ones.ts) — also when the merge
    // happens between the +1's look at the item and its write
    await withWorld(async (world) => {
      const workspaceId = await fourItems(world);
      const eve = await submitAs(world, workspaceId, 'eve@x.io', 'eve');
      const paused = pausingBefore(
        world.handler,
        itemStreamId(workspaceId, 'ACME-2'),
        'AddPlusOne',
        () => merge(world, workspaceId, 'ACME-1', ['ACME-2']),
      );
      const result = await addPlusOne({ commandHandler: paused }, ctx(), {
        workspaceId,
        itemKey: 'ACME-2',
        personId: eve.personId,
      });
      expect(result).to.include({ itemKey: 'ACME-1', changed: true });
      const survivor = await stateOf(world, workspaceId, 'ACME-1');
      expect(survivor.status !== 'absent' && plusOnesIn(survivor.roster)).to.include(eve.personId);
    });
  });
});
