/**
 * The KurrentDB adapter against a real server. Issue 2: "One contract suite run against every
 * adapter: always embedded; KurrentDB when EVENTSTORE_URL is set, otherwise skipped with a printed
 * reason." The suite puts every test's streams under a random prefix and reads `$all` after the
 * head it found, because a real server cannot be wiped between runs.
 */
import { expect } from 'chai';
import { openKurrentEventStore } from '../../src/eventstore/kurrentdb/index.js';
import { type EventStore, EventStoreUnavailableError } from '../../src/eventstore/types.js';
import { eventStoreContract } from './contract.js';
import { event, prefix } from './contract-fixtures.js';

const url = process.env.EVENTSTORE_URL;
const SKIP_REASON = 'EVENTSTORE_URL not set: KurrentDB contract suite skipped';

if (url) {
  // one client for the whole file: a gRPC connection per test would only measure connection setup
  let shared: Promise<EventStore> | undefined;
  eventStoreContract(`kurrentdb (${url.replace(/\/\/[^@/]*@/, '//***@')})`, async () => {
    shared ??= openKurrentEventStore({ connectionString: url });
    return { store: await shared, cleanup: async () => undefined };
  });
  after(async () => {
    await (await shared)?.close();
  });

  describe('When system events lie between a projector and the head (KurrentDB)', () => {
    // types.ts: "system events excluded, as subscriptions exclude them" — a server's own events
    // ($-types, $-streams) are never delivered, so they are not lag either
    it('counts only the events a subscription delivers', async () => {
      const store = await shared!;
      const p = prefix();
      const start = await store.headPosition();
      await store.appendToStream(`${p}a`, [event('ThingHappened')]);
      await store.appendToStream(`${p}a`, [event('$statistics-collected')]);
      await store.appendToStream(`$${p}meta`, [event('ThingHappened')]);
      const last = await store.appendToStream(`${p}a`, [event('ThingHappened')]);
      const { head, counts } = await store.countBehindHead([start], 1000);
      expect(head >= last.position).to.equal(true);
      const delivered = (await store.readAll({ after: start })).filter((e) => e.position <= head);
      expect(delivered.some((e) => e.type.startsWith('$') || e.streamId.startsWith('$'))).to.equal(
        false,
      );
      expect(counts).to.deep.equal([delivered.length]);
      // alone on the server: 2 of the 4 appended; one event behind is 1, not ~1.8e21
      expect(counts[0]).to.be.at.least(2).and.below(1000);
    });
  });
} else {
  describe('Event store contract: kurrentdb', () => {
    it(SKIP_REASON, function () {
      console.log(`      ${SKIP_REASON}`);
      this.skip();
    });
  });
}

describe('When the KurrentDB adapter cannot reach its server', () => {
  it('fails at open with EventStoreUnavailableError, naming the server without credentials', async () => {
    const error = await openKurrentEventStore({
      // port 1 refuses at once; a single discovery attempt keeps the test fast
      connectionString: 'kurrentdb://admin:secret@127.0.0.1:1?tls=false&maxDiscoverAttempts=1',
    }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(EventStoreUnavailableError);
    expect((error as Error).message)
      .to.include('127.0.0.1:1')
      .and.not.include('secret');
  });

  it('rejects a connection string of another scheme with EventStoreUnavailableError', async () => {
    const error = await openKurrentEventStore({ connectionString: 'http://127.0.0.1:2113' }).catch(
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(EventStoreUnavailableError);
    expect((error as Error).message).to.match(/invalid KurrentDB connection string/);
  });
});
