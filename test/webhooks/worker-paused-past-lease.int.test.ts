/**
 * A webhook worker paused past its lease (GC, SIGSTOP, a laptop asleep) and woken after another
 * took over must not move the stored checkpoint back (src/webhooks/worker/state.ts,
 * `saveCheckpoint`: "Store the checkpoint, only forward"). It stands down on waking and saves the
 * checkpoint it had; written over the newer one of the worker that took over, the next holder (or
 * a restart) handles those events again.
 *
 * Handling them again sends nothing twice: a delivery is keyed by (webhook, message) and the
 * message id by the event (records.ts `deliveryIdOf`), so fanning an event out again finds the
 * delivery there and queues nothing. The last step shows it: the restarted worker starts where
 * the stored checkpoint says, and the receiver has every message exactly once — with the fix
 * reverted as well (only the checkpoint assertions then fail).
 *
 * Two workers, each under the worker lease, over one embedded read store; the first one's every
 * read-store call waits while it is paused, its lease renewals among them.
 */
import { expect } from 'chai';
import * as actions from '../../src/feedback/actions/index.js';
import type { Collection, ReadStore } from '../../src/readstore/types.js';
import { loadCheckpoint } from '../../src/webhooks/worker/state.js';
import type { WebhookWorker } from '../../src/webhooks/worker/worker.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { type Receiver, startReceiver } from '../feedback/webhooks/support/receiver.js';
import { eventually } from '../feedback/webhooks/support/world.js';
import { withPersonIds } from '../support/person-ids.js';
import { openTestStores, type TestStores } from '../support/stores.js';
import {
  policy,
  type ProjectionEngine,
  secrets,
  seedBoard,
  startableWorker,
  startProjections,
} from './support/board.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A read store whose every call waits first for `held` (a paused process). */
function pausable(real: ReadStore, held: () => Promise<void>): ReadStore {
  return Object.assign(Object.create(real) as ReadStore, {
    collection(name: string): Collection {
      const col = real.collection(name);
      return new Proxy(col, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target);
          if (typeof value !== 'function') return value;
          return async (...args: unknown[]) => {
            await held();
            return value.apply(target, args);
          };
        },
      });
    },
    async flush(...args: Parameters<ReadStore['flush']>) {
      await held();
      return real.flush(...args);
    },
  });
}

/** A read store that drops every save of the worker's checkpoint while `cut()` (a crash). */
function crashable(real: ReadStore, cut: () => boolean): ReadStore {
  return Object.assign(Object.create(real) as ReadStore, {
    collection(name: string): Collection {
      const col = real.collection(name);
      if (name !== 'webhook_worker') return col;
      return Object.assign(Object.create(col) as Collection, {
        updateOne: (...args: Parameters<Collection['updateOne']>) =>
          cut() && args[0]._id === 'checkpoint'
            ? Promise.resolve({ matchedCount: 0, modifiedCount: 0, upsertedCount: 0 })
            : col.updateOne(...args),
      });
    },
  });
}

describe('A webhook worker paused past its lease (integration)', function () {
  this.timeout(60_000);
  let stores: TestStores;
  let engine: ProjectionEngine;
  let receiver: Receiver;
  const workers: WebhookWorker[] = [];
  let workspaceId: string;
  let wake = () => {};

  const deps = () =>
    withPersonIds({
      commandHandler: createCommandHandler(stores.eventStore),
      readStore: stores.readStore,
    });
  const context = () => ({ actor: 'pause-test', now: Date.now() });
  const head = () => stores.eventStore.headPosition();
  const caughtUp = async () => engine.waitFor(await head());
  const submit = (body: string) =>
    actions.submitFeedback(deps(), context(), {
      workspaceId,
      productKey: 'APP',
      body,
      requester: { email: 'someone@example.com' },
    });
  const worker = (readStore: ReadStore): WebhookWorker => {
    const started = startableWorker(stores, engine, { readStore, leaseMs: 600, renewMs: 100 });
    workers.push(started);
    return started;
  };
  const stored = () => loadCheckpoint(stores.readStore);

  before(async () => {
    stores = await openTestStores();
    engine = await startProjections(stores);
    receiver = await startReceiver();
    workspaceId = await seedBoard(stores, context);
    await caughtUp();
    await actions.createWebhook({ ...deps(), secrets, policy, maxPerWorkspace: 20 }, context(), {
      workspaceId,
      url: receiver.url,
    });
    await caughtUp();
  });
  after(async () => {
    wake();
    for (const w of workers) await w.stop().catch(() => {});
    await engine.stop();
    await receiver.close();
    await stores.cleanup();
  });

  it('does not store its older checkpoint over the newer one, and nothing is delivered twice', async () => {
    const real = stores.readStore;
    // every checkpoint the store holds after a save of it lands
    const seen: bigint[] = [];
    const watched: ReadStore = Object.assign(Object.create(real) as ReadStore, {
      collection(name: string): Collection {
        const col = real.collection(name);
        if (name !== 'webhook_worker') return col;
        return Object.assign(Object.create(col) as Collection, {
          async updateOne(...args: Parameters<Collection['updateOne']>) {
            const result = await col.updateOne(...args);
            if (args[0]._id === 'checkpoint') seen.push(await stored());
            return result;
          },
        });
      },
    });

    // A delivers two messages and stores its checkpoint of them
    let paused: Promise<void> | undefined;
    const a = worker(pausable(watched, async () => paused));
    await a.start();
    expect(a.status().delivering).to.equal(true);
    await submit('First');
    await submit('Second');
    await receiver.until(2);
    const before = await head();
    await eventually(async () => (await stored()) === before, "A's checkpoint to be stored");

    // A pauses; B stands by until A's lease runs out, takes over and delivers two more
    paused = new Promise((resolve) => {
      wake = resolve;
    });
    let crashed = false;
    const b = worker(crashable(watched, () => crashed));
    await b.start();
    await eventually(async () => b.status().delivering, 'B to take the lease');
    await submit('Third');
    await submit('Fourth');
    await receiver.until(4);
    const newest = await head();
    await eventually(async () => (await stored()) === newest, "B's checkpoint to be stored");

    // A wakes: its renewal finds the lease taken, and it stands down saving what it had
    wake();
    await eventually(async () => !a.status().delivering, 'A to stand down');
    await sleep(300);
    expect(seen.map(String), 'the stored checkpoint after each save').to.deep.equal(
      [...seen].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)).map(String),
    );
    expect(await stored(), 'the stored checkpoint once A stood down').to.equal(newest);

    // B crashes before it saves again; a restarted worker starts from the stored checkpoint
    crashed = true;
    await b.stop();
    await a.stop();
    const c = worker(real);
    await c.start();
    await eventually(async () => c.status().delivering, 'the restarted worker to deliver');
    await submit('Fifth');
    await receiver.until(5);
    await eventually(
      async () => BigInt(c.status().checkpoint) >= (await head()),
      'the restarted worker to reach the head',
    );
    await sleep(500);
    expect(
      receiver.received.map((r) => r.id),
      'each message once',
    ).to.have.length(5);
    expect(new Set(receiver.received.map((r) => r.id)).size).to.equal(5);
  });
});
