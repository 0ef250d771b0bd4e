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
