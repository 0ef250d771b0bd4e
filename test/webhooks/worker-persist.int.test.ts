/**
 * When the webhook worker makes its state durable (worker.ts `persist`): "`soon` when deliveries
 * were stored or changed; an event that made none only moves the checkpoint, and replaying it
 * after a crash does nothing, so that waits up to a second". The worker is given the read store
 * through a wrapper that counts its flushes; the projection engine, which flushes on its own
 * schedule, gets the store itself. Embedded stores, a real receiver on 127.0.0.1.
 */
import { expect } from 'chai';
import { feedbackProjectors } from '../../projections/feedback.js';
import * as actions from '../../src/feedback/actions/index.js';
import { silentLogger } from '../../src/platform/logger.js';
import { createProjectionEngine } from '../../src/read/projection-engine.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { systemClock } from '../../src/webhooks/clock.js';
import { createComposer } from '../../src/webhooks/messages/compose.js';
import { createSecretBox } from '../../src/webhooks/secrets.js';
import { createWebhookWorker, type WebhookWorker } from '../../src/webhooks/worker/worker.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { type Receiver, startReceiver } from '../feedback/webhooks/support/receiver.js';
import { eventually } from '../feedback/webhooks/support/world.js';
import { openTestStores, type TestStores } from '../support/stores.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Webhook worker: when its state is flushed (integration)', function () {
  this.timeout(30_000);
  let stores: TestStores;
  let engine: ReturnType<typeof createProjectionEngine>;
  let receiver: Receiver;
  let worker: WebhookWorker;
  let workspaceId: string;
  const flushes: number[] = [];
  const secrets = createSecretBox('worker-persist-test-secret-0123456789');
  const policy = { allowPrivate: true };

  const deps = () => ({
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
    engine = createProjectionEngine({
      eventStore: stores.eventStore,
      readStore: stores.readStore,
      projectors: feedbackProjectors(),
    });
    await engine.start();
    receiver = await startReceiver();
    const { userId } = await actions.createUser(deps(), context(), {
      email: 'owner@acme.io',
      displayName: 'Owner',
    });
    ({ workspaceId } = await actions.createWorkspace(deps(), context(), {
      slug: 'acme-co',
      name: 'Acme',
      ownerId: userId,
    }));
    for (const key of ['APP', 'WEB']) {
      await actions.createProduct(deps(), context(), {
        workspaceId,
        key,
        name: key,
        visibility: 'public',
      });
    }
    const counted: ReadStore = Object.create(stores.readStore);
    counted.flush = (checkpoints) => {
      flushes.push(performance.now());
      return stores.readStore.flush(checkpoints);
    };
    worker = createWebhookWorker({
      eventStore: stores.eventStore,
      readStore: counted,
      commandHandler: createCommandHandler(stores.eventStore),
      waitFor: (position) => engine.waitFor(position),
      composer: createComposer({ eventStore: stores.eventStore, readStore: stores.readStore }),
      secrets,
      policy,
      clock: systemClock,
      concurrency: 4,
      logger: silentLogger,
    });
    await worker.start();
    await sleep(1_200); // the setup's events are handled, saved and flushed
  });
  after(async () => {
    await worker.stop();
    await engine.stop();
    await receiver.close();
    await stores.cleanup();
  });

  it('events that make no delivery move the checkpoint, and it is flushed within a second, not at once', async () => {
    const before = flushes.length;
    for (let i = 0; i < 10; i++) {
      await submit('APP', `No one listens ${i}`);
      await sleep(20);
    }
    await atHead();
    const reached = performance.now();
    await sleep(300);
    expect(flushes.length - before, 'flushes within 300 ms of reaching the head').to.equal(0);
    await eventually(async () => flushes.length > before, 'the late flush', 2_000);
    expect(flushes.at(-1)! - reached).to.be.below(1_100);
  });

  it('an event that makes a delivery is flushed within tens of milliseconds', async () => {
    await actions.createWebhook({ ...deps(), secrets, policy }, context(), {
      workspaceId,
      url: receiver.url,
      productKeys: ['WEB'],
    });
    await atHead();
    await sleep(1_200);
    const before = flushes.length;
    await submit('WEB', 'Someone listens');
    await atHead();
    const reached = performance.now();
    await eventually(async () => flushes.length > before, 'the flush of the delivery', 1_000);
    expect(flushes[before]! - reached).to.be.below(200);
    await receiver.until(1);
  });
});
