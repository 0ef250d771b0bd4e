/**
 * README (Admin CLI, upgrades): "A process that finds a read model built by another version drops
 * it and replays the log into it on start", and the merge recovery completes a merge a crash
 * left part way "once the items read model has caught up" (src/feedback/service.ts). On the
 * first start after an upgrade the replay can take longer than PROJECTION_WAIT_MS (about 20 s
 * for 30,000 events on 2 cores, measured upgrading 2026-11-26's DATA_DIR): the recovery gave up
 * then, logging "merge recovery failed; it runs again at the next start", and left the merge
 * undone until another restart.
 *
 * That wait is no request's: README (Logs, metrics) counts in `read_your_writes_timeouts_total`
 * the waits that ran out (requests answered 503, the webhook worker's), and warns "read models
 * did not catch up within PROJECTION_WAIT_MS" for them. The recovery waited in rounds of the
 * requests' timed wait, so a long rebuild raised both although no request waited.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { itemStreamId } from '../../../commands/item/index.js';
import type { Projector } from '../../../projections/shared/projector.js';
import { mergeItems } from '../../../src/feedback/actions/index.js';
import { createFeedbackService } from '../../../src/feedback/service.js';
import type { ServiceModule } from '../../../src/platform/service.js';
import { type LogLines, logLines } from '../../support/log-lines.js';
import { startTestRuntime, type TestRuntime } from '../../support/runtime.js';
import { countEvents, crashingHandler, ctx, SimulatedCrash, type World } from './harness.js';
import { seedBoard, submitAs } from './seed.js';

/** The feedback service plus one read model whose version a test bumps, rebuilt slowly. */
function withUpgradedReadModel(
  service: ServiceModule,
  upgrade: { version: number; msPerEvent: number },
): ServiceModule {
  return {
    ...service,
    boot(env) {
      const instance = service.boot(env);
      const upgraded: Projector = {
        name: 'upgraded',
        version: upgrade.version,
        collections: ['upgraded'],
        async apply() {
          await sleep(upgrade.msPerEvent);
        },
      };
      return { ...instance, projectors: [...instance.projectors, upgraded] };
    },
  };
}

/** The runtime's stores; the test waits for its read models longer than its writes would. */
function worldOf(rt: TestRuntime): World {
  const { stores, context, engine } = rt.runtime;
  return {
    events: stores.eventStore,
    readStore: stores.readStore,
    handler: context.commandHandler,
    caughtUp: async (position) =>
      engine!.waitFor(position ?? (await stores.eventStore.headPosition()), 30_000),
    crashingOn: (streamId) => crashingHandler(stores.eventStore, streamId),
  };
}

async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await check()) && performance.now() < deadline) await sleep(50);
}

describe('When the first start after an upgrade replays a read model for longer than PROJECTION_WAIT_MS', () => {
  const upgrade = { version: 1, msPerEvent: 0 };
  let rt: TestRuntime;
  let log: LogLines;
  before(async () => {
    log = logLines('info');
    rt = await startTestRuntime(
      [withUpgradedReadModel(createFeedbackService(), upgrade)],
      { PROJECTION_WAIT_MS: '100' },
      log.logger,
    );
  });
  after(() => rt.stop());

  it('the merge recovery waits for it and completes the merge a crash left part way', async () => {
    const world = worldOf(rt);
    const { workspaceId } = await seedBoard(world);
    for (const email of ['ann@x.io', 'bo@x.io', 'cy@x.io'])
      await submitAs(world, workspaceId, email);
    const crashing = world.crashingOn(itemStreamId(workspaceId, 'ACME-1'));
    const crash = await mergeItems({ commandHandler: crashing, eventStore: world.events }, ctx(), {
      workspaceId,
      productKey: 'ACME',
      survivorKey: 'ACME-1',
      mergedKeys: ['ACME-2', 'ACME-3'],
    }).catch((error: unknown) => error);
    expect(crash).to.be.instanceOf(SimulatedCrash);
    await world.caughtUp();
    expect(await countEvents(world.events, 'ItemsMerged')).to.equal(0);

    // the new version's read model: replaying ~30 events takes ~600 ms, six times the wait
    upgrade.version = 2;
    upgrade.msPerEvent = 20;
    const linesBefore = log.lines.length;
    await rt.restart();
    const merged = () => countEvents(rt.runtime.stores.eventStore, 'ItemsMerged');
    await eventually(async () => (await merged()) === 1, 5_000);
    expect(await merged(), 'ItemsMerged appended by the recovery').to.equal(1);

    // "read_your_writes_timeouts_total: waits for the read models that ran out of
    // PROJECTION_WAIT_MS: requests answered 503, and the webhook worker's" — the recovery is
    // neither, and no request was answered at all since the restart
    const metrics = await (await fetch(`${rt.url('feedback')}/metrics`)).text();
    const timeouts = Number(/^read_your_writes_timeouts_total (\d+)/m.exec(metrics)?.[1]);
    expect(timeouts, 'read_your_writes_timeouts_total after the recovery').to.equal(0);
    const warned = log.lines
      .slice(linesBefore)
      .filter((l) => l.msg === 'read models did not catch up within PROJECTION_WAIT_MS');
    expect(warned, 'warnings that read models did not catch up').to.deep.equal([]);
  });
});
