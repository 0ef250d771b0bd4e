/**
 * src/read/projector-lease.ts: the lease's store failing is "a warning naming the error once per
 * distinct error (a store down for an hour would log a line every period otherwise), again after
 * the store has answered" — for a server (role `all`) too, which shares the lease without standing
 * by for another server and used to ignore its store's errors without a word. Its projector-role
 * twin runs over a whole runtime in test/platform/projector-lease-failing.e2e.test.ts.
 */
import { expect } from 'chai';
import { leaseIn, type Lease } from '../../src/platform/lease.js';
import {
  holdProjectorLease,
  PROJECTOR_LEASE,
  shareProjectorLease,
} from '../../src/read/projector-lease.js';
import { logLines } from '../support/log-lines.js';
import { openTestStores, type TestStores } from '../support/stores.js';

const WARNING = 'projector lease could not be taken: its store failed; trying again';

/** the edge: the store's answer to a take of the lease, an error while `failure` is set */
function failingLease(stores: TestStores, failure?: string) {
  const real = leaseIn(stores.readStore, PROJECTOR_LEASE);
  const edge: { failure: string | undefined; real: Lease; lease: Lease } = {
    failure,
    real,
    lease: {
      ...real,
      async take(...args) {
        if (edge.failure) throw new Error(edge.failure);
        return real.take(...args);
      },
    },
  };
  return edge;
}

describe('When the store of a server’s shared projector lease fails (integration)', () => {
  let stores: TestStores;
  beforeEach(async () => {
    stores = await openTestStores();
  });
  afterEach(() => stores.cleanup());

  it('starts anyway, warns once per distinct error, counts each, and takes it once the store answers', async () => {
    const edge = failingLease(stores, 'store down: first');
    const { lease, real } = edge;
    const log = logLines();
    const errors: unknown[] = [];
    const warnings = () =>
      log.lines.filter((line) => line.msg === WARNING).map((line) => line.error);
    // 1000 ms: a renewal every 333 ms
    const held = await shareProjectorLease({
      lease,
      leaseMs: 1_000,
      logger: log.logger,
      onError: (error) => errors.push(error),
    });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(warnings()).to.deep.equal(['store down: first']);
    edge.failure = 'store down: second';
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(warnings()).to.deep.equal(['store down: first', 'store down: second']);
    // every failed try counted, not one per distinct error (a lower bound: timers run late under load)
    expect(errors.length).to.be.at.least(3);
    edge.failure = undefined;
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await real.holder(Date.now()))?.holder).to.equal(held.holder);
    // failing again after it answered: a warning again
    edge.failure = 'store down: second';
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(warnings()).to.have.length(3);
    edge.failure = undefined;
    await held.release();
  });

  // the same rule for the renewals of a lease held: a line per period (every 333 ms here) while
  // the store is down was the flood it names
  it('renewing a held lease, warns once per distinct error, counts each, and again after the store answered', async () => {
    const edge = failingLease(stores);
    const { lease } = edge;
    const log = logLines();
    const errors: unknown[] = [];
    const renewalWarnings = () =>
      log.lines
        .filter((line) => line.msg === 'projector lease renewal failed')
        .map((line) => line.error);
    const held = await holdProjectorLease({
      lease,
      leaseMs: 1_000,
      logger: log.logger,
      onLost: () => expect.fail('the lease was not lost: its store failed'),
      onError: (error) => errors.push(error),
    });
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    edge.failure = 'store down: first';
    await pause(1_200);
    expect(renewalWarnings()).to.deep.equal(['store down: first']);
    // every failed renewal counted, not one per distinct error (a lower bound: timers run late)
    expect(errors.length).to.be.at.least(2);
    edge.failure = undefined;
    await pause(800);
    edge.failure = 'store down: first';
    await pause(800);
    expect(renewalWarnings()).to.deep.equal(['store down: first', 'store down: first']);
    edge.failure = undefined;
    await held.release();
  });
});
