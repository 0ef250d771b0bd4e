/**
 * The projection engine when the read store's file refuses writes (failure audit F1: on a full
 * disk the read store's flush failed with SQLITE_FULL, the engine stopped for good — "projection
 * engine stopped: database or disk is full" — every later write answered 500 although it was
 * stored, and /readyz said ok). README: a store that cannot serve makes writes answer 503 with
 * Retry-After and `/readyz` answer 503 saying why; the process recovers once space is back.
 *
 * The full disk is SQLite's own: `max_page_count` on the read store's connection makes any
 * growth of the file fail with SQLITE_FULL, as a full file system does.
 */
import type Database from 'better-sqlite3';
import { expect } from 'chai';
import { createProjectionEngine, type ProjectionEngine } from '../../src/read/projection-engine.js';
import { createReadiness } from '../../src/platform/readiness.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { counter, counterProjector } from '../support/counter.js';
import { openTestStores, type TestStores } from '../support/stores.js';

const ctx = { actor: 'u', now: 1 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** the read store's own SQLite connection (the fault is injected at the edge: the file) */
const connectionOf = (stores: TestStores) =>
  (stores.readStore as unknown as { file: { db: Database.Database } }).file.db;

describe('When the read store cannot write its file (disk full)', function () {
  this.timeout(30_000);
  let stores: TestStores;
  let engine: ProjectionEngine;
  const errors: string[] = [];
  before(async () => {
    stores = await openTestStores();
    engine = createProjectionEngine({
      eventStore: stores.eventStore,
      readStore: stores.readStore,
      projectors: [counterProjector()],
      logger: { info() {}, error: (message: string) => errors.push(message) },
      flushIntervalMs: 10,
    });
    await engine.start();
  });
  after(async () => {
    await engine.stop();
    await stores.cleanup();
  });

  const increment = (stream: string) =>
    createCommandHandler(stores.eventStore).handle(
      stream,
      counter,
      { type: 'Increment', by: 1 },
      ctx,
    );

  it('keeps applying events, reports itself not ready, and flushes once the file takes writes again', async () => {
    const db = connectionOf(stores);
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    let last: bigint | null = null;
    for (let i = 0; i < 400; i++)
      last = (await increment(`counter-${i}-${'x'.repeat(200)}`)).position;
    await engine.waitFor(last!, 5_000);
    await sleep(100);
    const status = await engine.status();
    expect(status.flushFailure).to.match(/full/);
    expect(status.stopped).to.equal(undefined);
    const readiness = createReadiness({ stallMs: 10_000 });
    expect(readiness.reasons(status).join()).to.match(/read store refused .* flush: .*full/);

    db.pragma('max_page_count = 1073741823');
    const deadline = Date.now() + 10_000;
    while ((await engine.status()).flushFailure && Date.now() < deadline) await sleep(100);
    const after = await engine.status();
    expect(after.flushFailure).to.equal(undefined);
    expect(readiness.reasons(after)).to.deep.equal([]);
    // the engine goes on: a later write is applied and its waiter answered
    const { position } = await increment('counter-after');
    await engine.waitFor(position!, 5_000);
    expect(errors.some((line) => /projection engine stopped/.test(line))).to.equal(false);
  });
});
