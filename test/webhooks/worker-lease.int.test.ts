/**
 * Issue 18: "with real engines `npm run start:webhooks` runs it alone, and a second worker
 * stands by without double-sending (a lease in the store)." Two workers over one store here,
 * a real receiver on 127.0.0.1; the lease itself is also checked at its edges. Runs over the
 * embedded read store, and over MongoDB as well when MONGODB_URL is set (the lease, the
 * checkpoint and the deliveries are then MongoDB documents).
 */
import { expect } from 'chai';
import * as actions from '../../src/feedback/actions/index.js';
import { takeLease } from '../../src/webhooks/worker/state.js';
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
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { openMongoReadStore } from '../../src/readstore/mongodb/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { withPersonIds } from '../support/person-ids.js';

const mongoUrl = process.env.MONGODB_URL;

interface LeaseStores {
  eventStore: TestStores['eventStore'];
  readStore: ReadStore;
  cleanup(): Promise<void>;
}

async function embedded(): Promise<LeaseStores> {
  return openTestStores();
}

async function mongo(): Promise<LeaseStores> {
  const url = mongoUrl!;
  const local = await openTestStores();
  const database = `webhook_lease_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const readStore = await openMongoReadStore({ url, database });
  return {
    eventStore: local.eventStore,
    readStore,
    async cleanup() {
      await readStore.close();
      const client = new MongoClient(url);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
      await local.cleanup();
    },
  };
}

leaseSuite('embedded read store', embedded);
if (mongoUrl) leaseSuite('MongoDB read store', mongo);
else {
  describe('Two webhook workers over one MongoDB store (integration)', () => {
    it('MONGODB_URL not set: the MongoDB run is skipped', function () {
      console.log('    MONGODB_URL not set: the MongoDB run is skipped');
      this.skip();
    });
  });
}

function leaseSuite(name: string, open: () => Promise<LeaseStores>) {
  describe(`Two webhook workers over one store: ${name} (integration)`, function () {
    this.timeout(60_000);
    let stores: LeaseStores;
    let engine: ProjectionEngine;
    let receiver: Receiver;
    const workers: WebhookWorker[] = [];
    let workspaceId: string;

    const deps = () =>
      withPersonIds({
        commandHandler: createCommandHandler(stores.eventStore),
        readStore: stores.readStore,
      });
    const context = () => ({ actor: 'lease-test', now: Date.now() });
    const caughtUp = async () => engine.waitFor(await stores.eventStore.headPosition());

    function worker(): WebhookWorker {
      const started = startableWorker(stores, engine, { leaseMs: 600, renewMs: 100 });
      workers.push(started);
      return started;
    }

    async function submit(body: string): Promise<void> {
      await actions.submitFeedback(deps(), context(), {
        workspaceId,
        productKey: 'APP',
        body,
        requester: { email: 'someone@example.com' },
      });
    }

    before(async () => {
      stores = await open();
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
      for (const w of workers) await w.stop();
      await engine.stop();
      await receiver.close();
      await stores.cleanup();
    });

    describe('When both run', () => {
      it('one delivers, the other stands by, and each message is sent once', async () => {
        const a = worker();
        const b = worker();
        await a.start();
        await b.start();
        expect([a.status().delivering, b.status().delivering]).to.deep.equal([true, false]);
        for (let i = 0; i < 5; i++) await submit(`Message ${i}`);
        await receiver.until(5);
        await eventually(
          async () => BigInt(a.status().checkpoint) >= (await stores.eventStore.headPosition()),
          'the worker to reach the head',
        );
        expect(b.status().delivering).to.equal(false);
        expect(new Set(receiver.received.map((r) => r.id)).size).to.equal(5);
        expect(receiver.received).to.have.length(5);
      });
    });

    describe('When the delivering worker stops', () => {
      it('the standby takes over from the checkpoint and sends only what is new', async () => {
        const [a, b] = workers as [WebhookWorker, WebhookWorker];
        await a.stop();
        await eventually(async () => b.status().delivering, 'the standby to take the lease');
        for (let i = 0; i < 3; i++) await submit(`After the switch ${i}`);
        await receiver.until(8);
        expect(new Set(receiver.received.map((r) => r.id)).size).to.equal(8);
        expect(receiver.received).to.have.length(8);
      });
    });

    describe('When a lease is taken', () => {
      it('is refused to another holder until it runs out, then passes to them', async () => {
        const store = stores.readStore;
        const now = Date.now() + 10 * 60_000; // past every lease the workers above hold
        expect(await takeLease(store, { holder: 'x', now, ttlMs: 1000 })).to.equal(true);
        expect(await takeLease(store, { holder: 'y', now: now + 500, ttlMs: 1000 })).to.equal(
          false,
        );
        expect(await takeLease(store, { holder: 'x', now: now + 900, ttlMs: 1000 })).to.equal(true);
        expect(await takeLease(store, { holder: 'y', now: now + 1800, ttlMs: 1000 })).to.equal(
          false,
        );
        expect(await takeLease(store, { holder: 'y', now: now + 2000, ttlMs: 1000 })).to.equal(
          true,
        );
        expect(await takeLease(store, { holder: 'x', now: now + 2100, ttlMs: 1000 })).to.equal(
          false,
        );
      });
    });
  });
}
