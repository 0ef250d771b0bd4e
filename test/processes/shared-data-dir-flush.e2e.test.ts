/**
 * README, `SHARED_DATA_DIR`: several servers on one data directory each keep the embedded read
 * store in their own memory and flush it into the one shared file. "A server writes a read
 * model's documents into the shared file only while its projectors are at or past the checkpoint
 * stored for it": a server behind (it started later, it was paused between applying an event
 * and flushing it) would otherwise write its older copy of a document over the newer one the
 * server ahead stored, while the stored checkpoint stays ahead (it only moves forward) — and a
 * restart would load the older copy and replay nothing, lacking the change until a `rebuild`.
 *
 * Two app instances over one data directory (as revoked-across-processes does): B applies the
 * item's capture and is paused before its flush lands; A applies the capture and a status change
 * and flushes; B's flush lands last. After a restart the item has the status A stored.
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../feedback/support/harness.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { logLines } from '../support/log-lines.js';
import { tempDir } from '../support/stores.js';

describe('When a server behind another on a shared data directory flushes last (e2e)', function () {
  this.timeout(60_000);
  const dir = tempDir('shared-flush-');
  const shared = { DATA_DIR: dir, SHARED_DATA_DIR: 'true' };
  const harnesses: FeedbackHarness[] = [];
  after(async () => {
    for (const harness of harnesses) await harness.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the newer document in the file: a restart shows the change', async () => {
    // A looks for B's appends every 20 ms; B not within the test (ten minutes)
    const a = await startFeedback({ env: { ...shared, EMBEDDED_POLL_MS: '20' } });
    harnesses.push(a);
    const maker: Maker = await a.createMaker('max@acme.io');
    await a.createProduct(maker.home, { key: 'APP', name: 'App', visibility: 'public' });
    const logB = logLines('warn');
    const b = await startFeedback({
      env: { ...shared, EMBEDDED_POLL_MS: '600000' },
      logger: logB.logger,
    });
    harnesses.push(b);

    // B is paused between applying events and flushing them (a GC pause, SIGSTOP)
    const storeB = b.runtime.runtime.stores.readStore;
    const flushB = storeB.flush.bind(storeB);
    let wake = () => {};
    const paused = new Promise<void>((resolve) => {
      wake = resolve;
    });
    Object.assign(storeB, {
      flush: async (...args: Parameters<ReadStore['flush']>) => {
        await paused;
        return flushB(...args);
      },
    });
    const { itemKey } = await b.submit(maker.home, 'APP', { body: 'Dark mode please' });

    // A sees the capture, changes the item's status and stores it (its stop flushes)
    const item = `/v1/workspaces/${maker.home.slug}/products/APP/items/${itemKey}`;
    const api = a.api(maker.token);
    for (let tries = 0; (await api.get(item)).status !== 200; tries++) {
      if (tries > 250) throw new Error('A never saw the item B captured');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const changed = await api.post(`${item}/status`, { status: 'planned' });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    await a.stop();

    // B wakes: its flush, holding the item as captured, lands last (its stop waits for it)
    wake();
    await b.stop();

    const restarted = await startFeedback({ env: { DATA_DIR: dir } });
    harnesses.push(restarted);
    const after = await restarted.api(maker.token).get(item);
    expect(after.status, JSON.stringify(after.body)).to.equal(200);
    expect(after.body.item.status, 'the status A stored').to.equal('planned');
    // and B said why it left the items' documents alone, once
    const said = logB.lines.filter((line) =>
      /data file holds its read model/.test(String(line.msg)),
    );
    expect(said.map((line) => line.projector)).to.include('items@4');
    expect(new Set(said.map((line) => line.projector)).size, 'once a projector').to.equal(
      said.length,
    );
  });
});
