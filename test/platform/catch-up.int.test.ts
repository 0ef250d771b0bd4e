/**
 * The catch-up an API process runs before a request reads its read models (src/platform/
 * catch-up.ts), over real embedded stores and a second writer on the same file — what the admin
 * CLI is. Spec: "Revocation takes effect at once"; "Removal or a role change applies on the next
 * request". Requests in one event-loop turn share one read of the log's head, but a read never
 * serves a request that asked after it started.
 */
import { expect } from 'chai';
import { openEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import type { EventStore } from '../../src/eventstore/types.js';
import { catchUpFor, pendingFor } from '../../src/platform/catch-up.js';
import { createProjectionEngine, type ProjectionEngine } from '../../src/read/projection-engine.js';
import { counterProjector } from '../support/counter.js';
import { openTestStores, type TestStores } from '../support/stores.js';
import { steppableWallClock } from '../support/wall-clock.js';

describe('Catch-up before a request', () => {
  let stores: TestStores;
  let other: EventStore;
  let engine: ProjectionEngine;
  let reads: number;
  /** runs inside a head read, after the head was read */
  let duringRead: (() => Promise<void>) | undefined;
  let catchUp: () => Promise<void>;

  beforeEach(async () => {
    stores = await openTestStores();
    other = await openEmbeddedEventStore({ path: stores.file });
    engine = createProjectionEngine({
      eventStore: stores.eventStore,
      readStore: stores.readStore,
      projectors: [counterProjector()],
      logger: { info() {}, error() {} },
    });
    await engine.start();
    reads = 0;
    duringRead = undefined;
    const log = stores.eventStore;
    catchUp = catchUpFor(
      {
        readStore: stores.readStore,
        eventStore: {
          async headPosition() {
            reads++;
            const head = await log.headPosition();
            const hook = duringRead;
            duringRead = undefined;
            await hook?.();
            return head;
          },
          pollNow: (head) => log.pollNow?.(head),
          readAll: (options) => log.readAll(options),
        },
      },
      engine,
    );
  });
  afterEach(async () => {
    await engine.stop();
    await other.close();
    await stores.cleanup();
  });

  /** an append by another writer of the same file, as the CLI makes it */
  const appendElsewhere = async (streamId = 'counter-a') =>
    (
      await other.appendToStream(
        streamId,
        [
          {
            type: 'CounterIncremented',
            data: { by: 1 },
            metadata: { actor: 'cli', occurredAt: 1, correlationId: 'c-1', causationId: null },
          },
        ],
        { expectedRevision: 'any' },
      )
    ).position;

  it('shows a request what another process appended before it asked', async () => {
    const position = await appendElsewhere();
    await catchUp();
    expect(engine.position() >= position).to.equal(true);
    const doc = await stores.readStore.collection('counters').findOne({ _id: 'counter-a' });
    expect(doc?.total).to.equal(1);
  });

  it('serves the requests of one event-loop turn with one read of the log head', async () => {
    await Promise.all(Array.from({ length: 20 }, () => catchUp()));
    expect(reads).to.equal(1);
    await catchUp();
    expect(reads).to.equal(2);
  });

  it('never lets a read serve a request that asked after the read started', async () => {
    let appended = 0n;
    let late: Promise<void> | undefined;
    // the first read has taken the head; then another process appends, then a request asks
    duringRead = async () => {
      appended = await appendElsewhere();
      late = catchUp();
    };
    await catchUp();
    expect(engine.position() < appended, 'the first read predates the append').to.equal(true);
    await late;
    expect(reads).to.equal(2);
    expect(engine.position() >= appended).to.equal(true);
  });

  it('bounded to some streams, names the events of theirs the read models lack, and nothing else', async () => {
    // the read models held where they are: what they lack stays so
    const at = await appendElsewhere('counter-a');
    const held = { position: () => at, waitFor: async () => {} };
    const credentials = pendingFor(stores, held, { streamPrefixes: ['token-'] })!;
    const positionsOf = async () => (await credentials()).events.map((event) => event.position);
    expect(await positionsOf(), 'nothing lacking: nothing named').to.deep.equal([]);
    await appendElsewhere('counter-b');
    const revocation = await appendElsewhere('token-t1');
    await appendElsewhere('counter-c');
    expect(await positionsOf()).to.deep.equal([revocation]);
    await appendElsewhere('counter-d');
    const second = await appendElsewhere('token-t2');
    expect(await positionsOf(), 'each read adds what was appended since').to.deep.equal([
      revocation,
      second,
    ]);
  });

  it("gives the board's pages another process's append within their poll, also once the wall clock stepped back", async () => {
    // time audit: the board's poll was timed on the wall clock; stepped back, it stopped
    // asking the log, and the board served pages cached before the CLI's change
    const clock = steppableWallClock();
    try {
      const at = await appendElsewhere('counter-a');
      const held = { position: () => at, waitFor: async () => {} };
      const pages = pendingFor(stores, held, { streamPrefixes: ['item-'] }, 50)!;
      expect((await pages()).events).to.deep.equal([]);
      clock.step(-3_600_000);
      const appended = await appendElsewhere('item-w.APP-1');
      expect((await pages()).events, 'asked again only after the poll').to.deep.equal([]);
      await new Promise((resolve) => setTimeout(resolve, 60)); // past the poll
      const next = await pages();
      expect(next.events.map((event) => event.position)).to.deep.equal([appended]);
    } finally {
      clock.restore();
    }
  });
});
