/**
 * One projector at a time (issue 13: "a second projector started beside the first stands by (a
 * lease in the store) and takes over within a few seconds when the first is killed; never two
 * active at once"), over a real read store. The multi-process run of the same rule is in
 * test/engines/multi-process.e2e.test.ts (it needs the engine stand-ins).
 */
import { expect } from 'chai';
import { silentLogger } from '../../src/platform/logger.js';
import { leaseIn } from '../../src/platform/lease.js';
import {
  holdProjectorLease,
  PROJECTOR_LEASE,
  REBUILD_KIND,
  shareProjectorLease,
  tryLease,
} from '../../src/read/projector-lease.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { openTestStores, type TestStores } from '../support/stores.js';

describe('The projector lease (integration)', () => {
  let stores: TestStores;
  beforeEach(async () => {
    stores = await openTestStores();
  });
  afterEach(() => stores.cleanup());

  const hold = (onLost = () => {}) =>
    holdProjectorLease({
      lease: leaseIn(stores.readStore, PROJECTOR_LEASE),
      leaseMs: 600,
      logger: silentLogger,
      onLost,
    });

  it('keeps a second holder waiting until the first releases it', async () => {
    const first = await hold();
    let secondHeld = false;
    const second = hold().then((lease) => {
      secondHeld = true;
      return lease;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // the first renews every 200 ms: the second is still standing by after more than a lease
    expect(secondHeld).to.equal(false);
    await first.release();
    const taken = await second;
    expect(secondHeld).to.equal(true);
    await taken.release();
  });

  it('passes to the standby once the holder stops renewing (killed), within about one lease', async () => {
    // a holder that died: its lease document stays, and runs out
    expect(await leaseIn(stores.readStore, PROJECTOR_LEASE).take('dead', Date.now(), 600)).to.equal(
      true,
    );
    const started = Date.now();
    const lease = await hold();
    expect(Date.now() - started).to.be.within(400, 1_500);
    await lease.release();
  });

  it('tells a holder that lost its lease (paused past it) to stop', async () => {
    let lost = false;
    const lease = await hold(() => {
      lost = true;
    });
    // another process found it run out and took it
    await stores.readStore
      .collection<{ _id: string; holder?: string; until?: number }>(PROJECTOR_LEASE)
      .updateOne({ _id: 'lease' }, { $set: { holder: 'other', until: Date.now() + 60_000 } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(lost).to.equal(true);
    await lease.release();
  });

  it('renews one at a time: a renewal waiting on an unreachable store is not joined by more', async () => {
    // src/read/projector-lease.ts: "starting one per period would pile them up and send them
    // all when the store comes back" (seen after a MongoDB restart: ten at once)
    let inFlight = 0;
    let most = 0;
    let calls = 0;
    let unreachable: Promise<void> | undefined;
    let reachable = () => {};
    const real = stores.readStore;
    const store: ReadStore = Object.create(real);
    store.collection = (name) => {
      const inner = real.collection(name);
      if (name !== PROJECTOR_LEASE) return inner;
      const collection = Object.create(inner);
      collection.updateOne = async (...args: Parameters<typeof inner.updateOne>) => {
        calls++;
        inFlight++;
        most = Math.max(most, inFlight);
        try {
          if (unreachable) await unreachable;
          return await inner.updateOne(...args);
        } finally {
          inFlight--;
        }
      };
      return collection;
    };
    const lease = await holdProjectorLease({
      lease: leaseIn(store, PROJECTOR_LEASE),
      leaseMs: 300,
      logger: silentLogger,
      onLost: () => {},
    });
    unreachable = new Promise((resolve) => {
      reachable = resolve;
    });
    const callsBefore = calls;
    // the period is 100 ms: ten periods pass while the store does not answer
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(most, 'renewals in flight at once').to.equal(1);
    expect(calls - callsBefore).to.equal(1);
    unreachable = undefined;
    reachable();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // renewing again once the store answers, still one at a time
    expect(calls - callsBefore).to.be.at.least(2);
    expect(most).to.equal(1);
    await lease.release();
  });

  describe('When rebuild asks for it (it must not run beside a live projector)', () => {
    const lease = () => leaseIn(stores.readStore, PROJECTOR_LEASE);
    const rebuild = () =>
      tryLease({
        lease: lease(),
        leaseMs: 600,
        kind: REBUILD_KIND,
        logger: silentLogger,
        onLost: () => {},
      });

    it('is refused at once, naming the projector that holds it', async () => {
      const projector = await hold();
      const answer = await rebuild();
      expect(answer).to.deep.equal({ heldBy: projector.holder });
      expect(projector.holder).to.match(/^projector pid \d+ on /);
      await projector.release();
    });

    it('keeps a projector starting meanwhile standing by until the rebuild releases it', async () => {
      const held = await rebuild();
      if ('heldBy' in held) throw new Error(`refused: ${held.heldBy}`);
      expect(held.holder).to.match(/^rebuild pid \d+ on /);
      let projectorHeld = false;
      const projector = hold().then((taken) => {
        projectorHeld = true;
        return taken;
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(projectorHeld).to.equal(false);
      await held.release();
      await (await projector).release();
    });

    it('a server (role all) waits for a rebuild but not for another server', async () => {
      const held = await rebuild();
      if ('heldBy' in held) throw new Error(`refused: ${held.heldBy}`);
      let serverHeld = false;
      const server = shareProjectorLease({
        lease: lease(),
        leaseMs: 600,
        logger: silentLogger,
      }).then((taken) => {
        serverHeld = true;
        return taken;
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(serverHeld).to.equal(false);
      await held.release();
      const first = await server;
      expect((await lease().holder(Date.now()))?.holder).to.equal(first.holder);
      // a second `npm start` on the same data starts at once; rebuild still sees the first
      const second = await shareProjectorLease({
        lease: lease(),
        leaseMs: 600,
        logger: silentLogger,
      });
      expect((await lease().holder(Date.now()))?.holder).to.equal(first.holder);
      expect(await rebuild()).to.deep.equal({ heldBy: first.holder });
      await second.release();
      await first.release();
      expect(await lease().holder(Date.now())).to.equal(undefined);
    });
  });
});
