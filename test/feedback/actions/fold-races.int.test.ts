/**
 * The same-body fold under concurrent submissions. Issue 12 item 5: "the same body from the same
 * visitor within 10 minutes is folded into the first item". It was looked up on the read model,
 * which lists an item only once its capture is projected, so identical submissions sent
 * together (a double click, a retrying client, a bot) each made an item. The product now decides
 * the fold as it allocates numbers (commands/product/decide.ts).
 */
import { expect } from 'chai';
import { itemStreamId } from '../../../commands/item/index.js';
import { FOLD_WINDOW_MS } from '../../../commands/product/index.js';
import { NotFound, ResourceExhausted } from '../../../commands/shared/errors.js';
import { getItem } from '../../../projections/items/index.js';
import { type Requester, updateProduct } from '../../../src/feedback/actions/index.js';
import { captureFeedback } from '../../../src/feedback/capture/file.js';
import { createCaptureGuard } from '../../../src/feedback/capture/guard.js';
import type { CommandContext } from '../../../src/write/command-handler.js';
import {
  countEvents,
  ctx,
  pausingBefore,
  SimulatedCrash,
  type World,
  withWorld,
} from './harness.js';
import { seedBoard } from './seed.js';
import { withPersonIds } from '../../support/person-ids.js';

const ann: Requester = { email: 'ann@x.io', displayName: 'Ann' };
const limits = {
  ipBurst: 1000,
  ipPerHour: 1000,
  personBurst: 3,
  personPerHour: 1,
  productBurst: 1000,
  productPerHour: 1000,
  minFillSeconds: 0,
  maxLinks: 3,
  plusOnesPerIpPerHour: 1000,
  plusOnesPerIpPerItemPerDay: 10,
  searchesPerIpBurst: 60,
  searchesPerIpPerHour: 600,
  codesPerVisitorBurst: 3,
  codesPerVisitorPerHour: 6,
};

function filer(world: World) {
  const guard = createCaptureGuard({ readStore: world.readStore, now: Date.now, limits });
  const stores = { readStore: world.readStore, guard };
  return (
    workspaceId: string,
    body: string,
    context: CommandContext = ctx(),
    commandHandler = world.handler,
  ) =>
    captureFeedback(withPersonIds({ ...stores, commandHandler }), context, {
      workspaceId,
      productKey: 'ACME',
      title: null,
      body,
      requester: ann,
      asker: { ip: '203.0.113.9', person: 'ann' },
    });
}

/** ACME-1's body, read once the read models reach `position` (an answer's read-your-writes). */
async function bodyAt(world: World, workspaceId: string, position: bigint | null) {
  expect(position, 'the answer names a position to wait for').to.be.a('bigint');
  await world.caughtUp(position);
  const found = await getItem(world.readStore, {
    workspaceId,
    productKey: 'ACME',
    itemKey: 'ACME-1',
  });
  return found?.doc.body;
}

describe('The same-body fold under concurrent submissions (integration)', function () {
  this.timeout(20_000);

  it('ten identical submissions sent together make one item, and every answer names it', () =>
    withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const file = filer(world);
      const at = ctx().now;
      const answers = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          file(workspaceId, 'Dark mode, please', ctx({ now: at + i })),
        ),
      );
      expect(await countEvents(world.events, 'ItemCaptured')).to.equal(1);
      const kept = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
      const refused = answers.flatMap((a) => (a.status === 'rejected' ? [a.reason] : []));
      // the person's burst (3) bounds the ones that raced before the first number was given
      expect(
        refused.every((e) => e instanceof ResourceExhausted),
        String(refused[0]),
      ).to.equal(true);
      expect(kept.length).to.be.at.least(limits.personBurst);
      expect(new Set(kept.map((k) => k.itemKey))).to.eql(new Set(['ACME-1']));
      expect(kept.filter((k) => !k.folded).length, 'answered as the first').to.be.at.most(1);
    }));

  it('a fold sent after the first is numbered, before it is captured, joins it: one item, readable at its answer', () =>
    withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const file = filer(world);
      let second: Awaited<ReturnType<typeof file>> | undefined;
      // the first submission has its number; the second arrives before its item is written
      const pausing = pausingBefore(
        world.handler,
        itemStreamId(workspaceId, 'ACME-1'),
        'CaptureItem',
        async () => {
          second = await file(workspaceId, 'Export to CSV');
        },
      );
      const first = await file(workspaceId, 'Export to CSV', ctx(), pausing);
      expect(second).to.include({ itemKey: 'ACME-1' });
      expect(first).to.include({ itemKey: 'ACME-1', folded: true });
      expect(await countEvents(world.events, 'ItemCaptured')).to.equal(1);
      expect(await bodyAt(world, workspaceId, first.position)).to.equal('Export to CSV');
    }));

  it('a first submission that crashed before capturing leaves its number to the next one', () =>
    withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const file = filer(world);
      const crashing = world.crashingOn(itemStreamId(workspaceId, 'ACME-1'));
      const crashed = file(workspaceId, 'Offline mode', ctx(), crashing);
      expect(await crashed.catch((e: unknown) => e)).to.be.instanceOf(SimulatedCrash);
      const next = await file(workspaceId, 'Offline mode');
      expect(next).to.include({ itemKey: 'ACME-1' });
      expect(await bodyAt(world, workspaceId, next.position)).to.equal('Offline mode');
    }));

  it('folds only within the window, only the same body, and costs no rate bucket', () =>
    withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const file = filer(world);
      const first = await file(workspaceId, 'Bigger fonts');
      for (let i = 0; i < limits.personBurst + 2; i++) {
        expect(await file(workspaceId, 'Bigger fonts')).to.include({
          itemKey: 'ACME-1',
          folded: true,
        });
      }
      const other = await file(workspaceId, 'Bigger buttons');
      expect(other.itemKey).to.equal('ACME-2');
      const later = await file(
        workspaceId,
        'Bigger fonts',
        ctx({ now: ctx().now + FOLD_WINDOW_MS }),
      );
      expect(later.itemKey).to.equal('ACME-3');
      expect(first.folded).to.equal(false);
    }));

  it('does not answer a private product’s item to the public', () =>
    withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const file = filer(world);
      await file(workspaceId, 'Secret roadmap');
      const deps = { commandHandler: world.handler, readStore: world.readStore };
      await updateProduct(deps, ctx(), { workspaceId, key: 'ACME', visibility: 'private' });
      const refused = await file(workspaceId, 'Secret roadmap').catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(NotFound);
    }));
});
