/**
 * The webhook worker when its subscription fails. Audit (production shape): after a KurrentDB
 * connection drop the worker logged "webhook worker subscription ended", kept its lease and
 * delivered nothing for good. Expected: "the webhook worker resubscribes from its checkpoint
 * after a transient error".
 */
import { expect } from 'chai';
import {
  type EventStore,
  EventStoreUnavailableError,
  type RecordedEvent,
  type Subscription,
} from '../../src/eventstore/types.js';
import * as actions from '../../src/feedback/actions/index.js';
import type { WebhookWorker } from '../../src/webhooks/worker/worker.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { type Receiver, startReceiver } from '../feedback/webhooks/support/receiver.js';
import { openTestStores, type TestStores } from '../support/stores.js';
import {
  type ProjectionEngine,
  policy,
  secrets,
  seedBoard,
  startableWorker,
  startProjections,
} from './support/board.js';
import { withPersonIds } from '../support/person-ids.js';

/** A subscription whose next event is a dropped connection, as the KurrentDB adapter reports it. */
function droppedSubscription(): Subscription {
  const iterator: AsyncIterableIterator<RecordedEvent> = {
    next: () =>
      Promise.reject(new EventStoreUnavailableError('14 UNAVAILABLE: Connection dropped')),
    return: async () => ({ done: true, value: undefined }),
    [Symbol.asyncIterator]: () => iterator,
  };
  return { [Symbol.asyncIterator]: () => iterator, close: async () => {} };
}

describe('When the webhook worker subscription drops (a KurrentDB restart)', function () {
  this.timeout(30_000);
  let stores: TestStores;
  let engine: ProjectionEngine;
  let receiver: Receiver;
  let worker: WebhookWorker | undefined;
  const context = () => ({ actor: 'resubscribe-test', now: Date.now() });
  const deps = () =>
    withPersonIds({
      commandHandler: createCommandHandler(stores.eventStore),
      readStore: stores.readStore,
    });

  beforeEach(async () => {
    stores = await openTestStores();
    engine = await startProjections(stores);
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await engine.stop();
    await receiver.close();
    await stores.cleanup();
  });

  it('subscribes again from its checkpoint and delivers what came meanwhile', async () => {
    const workspaceId = await seedBoard(stores, context);
    await actions.createWebhook({ ...deps(), secrets, policy, maxPerWorkspace: 20 }, context(), {
      workspaceId,
      url: receiver.url,
    });
    await engine.waitFor(await stores.eventStore.headPosition());
    const real = stores.eventStore;
    const subscribedAfter: Array<bigint | undefined> = [];
    const flaky: EventStore = Object.assign(Object.create(real), {
      subscribeToAll: (...args: Parameters<EventStore['subscribeToAll']>) => {
        subscribedAfter.push(args[0]?.after);
        return subscribedAfter.length <= 2 ? droppedSubscription() : real.subscribeToAll(...args);
      },
    });
    worker = startableWorker({ eventStore: flaky, readStore: stores.readStore }, engine, {
      leaseMs: 600,
      renewMs: 100,
    });
    await worker.start();
    await actions.submitFeedback(deps(), context(), {
      workspaceId,
      productKey: 'APP',
      body: 'Sent while the connection was down',
      requester: { email: 'someone@example.com' },
    });
    await receiver.until(1, 10_000);
    expect(worker.status().delivering).to.equal(true);
    expect(subscribedAfter.length).to.be.at.least(3);
    // each time from the checkpoint, which had not moved
    expect(new Set(subscribedAfter).size).to.equal(1);
  });
});
