/**
 * Projector lag in `/readyz` and `/metrics` on the embedded default. README: `/readyz` "reports
 * … every projector's checkpoint and lag"; `/metrics` `projector_lag_events`: "events of the log a
 * projector has not applied yet". Lag is a count of events, not `head - checkpoint`: positions are
 * "only ever compared, never computed with" (src/eventstore/types.ts). On the embedded store they
 * are consecutive — until a workspace is imported: "On the embedded store the events keep their
 * positions" (README, import-workspace), so the log then has gaps, and a distance between positions
 * is no longer a number of events. Here three events are imported 1000 positions apart.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { isEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import { createFeedbackService } from '../../src/feedback/service.js';
import { gatedProjector, withProjector } from '../support/gated-projector.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

interface Ready {
  projections: { head: string; projectors: { name: string; checkpoint: string; lag: string }[] };
}

const STREAM = 'lagprobe-1';
const GAP = 1000n;

describe('Projector lag of a projector behind the log, embedded default (e2e)', function () {
  this.timeout(60_000);
  const gate = gatedProjector('lagprobe', 'lagprobe-');
  let t: TestRuntime;
  let start = 0n;

  before(async () => {
    t = await startTestRuntime([withProjector(createFeedbackService(), gate.projector)]);
    const log = t.runtime.stores.rawEventStore;
    if (!isEmbeddedEventStore(log)) throw new Error('the embedded default was expected');
    start = await log.headPosition();
    const metadata = JSON.stringify({
      actor: null,
      occurredAt: 1_700_000_000_000,
      correlationId: randomUUID(),
      causationId: null,
    });
    // as an imported workspace's events arrive: under the positions they had in their old log
    await log.importEvents(
      [1n, 2n, 3n].map((n) => ({
        position: Number(start + n * GAP),
        streamId: STREAM,
        revision: Number(n) - 1,
        id: randomUUID(),
        type: 'ProbeRecorded',
        data: '{}',
        metadata,
      })),
    );
    await gate.reached; // the projector holds the first of the three
  });
  after(async () => {
    gate.release();
    await t?.stop();
  });

  const ready = async () => {
    const res = await fetch(`${t.url('feedback')}/readyz`);
    return (await res.json()) as Ready;
  };

  describe('When a projector holds the first of three events it has not applied', () => {
    it('/readyz reports its lag as 3 events — not the 3000 positions between', async () => {
      const { projections } = await ready();
      expect(projections.head).to.equal(String(start + 3n * GAP));
      const probe = projections.projectors.find((p) => p.name === 'lagprobe');
      expect(probe).to.deep.equal({ name: 'lagprobe', checkpoint: String(start), lag: '3' });
      // the projectors before it in the loop have applied the first event: two behind
      const others = projections.projectors.filter((p) => p.name !== 'lagprobe');
      expect(others.length).to.be.above(5);
      for (const p of others) expect(p, p.name).to.include({ lag: '2' });
    });

    it('/metrics projector_lag_events carries the same counts', async () => {
      const text = await (await fetch(`${t.url('feedback')}/metrics`)).text();
      expect(text).to.match(/^projector_lag_events\{projector="lagprobe"\} 3$/m);
      expect(text).to.match(/^projector_lag_events\{projector="items"\} 2$/m);
    });
  });

  describe('When the projector is let go', () => {
    it('every lag falls to 0 once the projections reach the head', async () => {
      gate.release();
      await t.runtime.context.waitFor(start + 3n * GAP);
      const { projections } = await ready();
      for (const p of projections.projectors) expect(p, p.name).to.include({ lag: '0' });
    });
  });
});
