/**
 * When the webhook worker makes its state durable (worker.ts `persist`): "`soon` when deliveries
 * were stored or changed; an event that made none only moves the checkpoint, and replaying it
 * after a crash does nothing, so that waits up to a second" (PERSIST_SOON_MS, PERSIST_LATE_MS).
 * The worker is given the read store through a wrapper that counts its flushes; the projection
 * engine, which flushes on its own schedule, gets the store itself. Embedded stores, a real
 * receiver on 127.0.0.1.
 */
import { expect } from 'chai';
import * as actions from '../../src/feedback/actions/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { PERSIST_SOON_MS } from '../../src/webhooks/worker/persist.js';
import type { WebhookWorker } from '../../src/webhooks/worker/worker.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { type Receiver, startReceiver } from '../feedback/webhooks/support/receiver.js';
import { eventually } from '../feedback/webhooks/support/world.js';
import { openTestStores, type TestStores } from '../support/stores.js';
import {
  policy,
  type ProjectionEngine,
  secrets,
  seedBoard,
  startableWorker,
  startProjections,
} from './support/board.js';
import { withPersonIds } from '../support/person-ids.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Webhook worker: when its state is flushed (integration)', function () {
  this.timeout(30_000);
  let stores: TestStores;
  let engine: ProjectionEngine;
  let receiver: Receiver;
  let worker: WebhookWorker;
  let workspaceId: string;
  const flushes: number[] = [];

  const deps = () =>
    withPersonIds({
      commandHandler: createCommandHandler(stores.eventStore),
      readStore: stores.readStore,
    });
  const context = () => ({ actor: 'persist-test', now: Date.now() });
  const submit = (productKey: string, body: string) =>
    actions.submitFeedback(deps(), context(), {
      workspaceId,
      productKey,
      body,
      requester: { email: 'someone@example.com' },
    });
  const atHead = () =>
    eventually(
      async () => BigInt(worker.status().checkpoint) >= (await stores.eventStore.headPosition()),
      'the worker to reach the head of the log',
    );

  before(async () => {
    stores = await openTestStores();
    engine = await startProjections(stores);
    receiver = await startReceiver();
    workspaceId = await seedBoard(stores, context, ['APP', 'WEB']);
    const counted: ReadStore = Object.create(stores.readStore);
    counted.flush = (checkpoints) => {
      flushes.push(performance.now());
      return stores.readStore.flush(checkpoints);
    };
    worker = startableWorker(stores, engine, { readStore: counted });
    await worker.start();
    await sleep(1_200); // the setup's events are handled, saved and flushed
  });
  after(async () => {
    await worker.stop();
    await engine.stop();
    await receiver.close();
    await stores.cleanup();
  });

  it('events that make no delivery move the checkpoint, and it is flushed about a second after the first, not at once', async () => {
    const before = flushes.length;
    const started = performance.now();
    for (let i = 0; i < 10; i++) {
      await submit('APP', `No one listens ${i}`);
      await sleep(20);
    }
    await atHead();
    await eventually(async () => flushes.length > before, 'the late flush', 3_000);
    expect(flushes[before]! - started, 'ms from the first event to the first flush').to.be.within(
      900,
      2_000,
    );
  });

  it('an event that makes a delivery is flushed PERSIST_SOON_MS after the worker reaches it, not at once', async () => {
    await actions.createWebhook({ ...deps(), secrets, policy, maxPerWorkspace: 20 }, context(), {
      workspaceId,
      url: receiver.url,
      productKeys: ['WEB'],
    });
    await atHead();
    await sleep(1_200);
    const before = flushes.length;
    const submitted = performance.now();
    await submit('WEB', 'Someone listens');
    await atHead();
    const reached = performance.now();
    await eventually(async () => flushes.length > before, 'the flush of the delivery', 2_000);
    // the save is due PERSIST_SOON_MS after the worker handled the event (between the two
    // marks); timers may fire a millisecond early, and a loaded machine late
    expect(flushes[before]! - submitted).to.be.at.least(PERSIST_SOON_MS - 2);
    expect(flushes[before]! - reached).to.be.below(PERSIST_SOON_MS + 250);
    await receiver.until(1);
  });
});
