/**
 * src/read/projector-lag.ts, the one lag computation of the engine and of the `api`/`webhooks`
 * roles. The brief: lag is "a count of events of the log a projector has not applied yet, on
 * every event store", computed "with ONE bounded read per status call"; a capped count shows as
 * "10000+" in /readyz, and the readiness rule ("behind and not moving", lag compared with '0')
 * keeps working.
 */
import { expect } from 'chai';
import type { BehindHead } from '../../src/eventstore/types.js';
import { createReadiness } from '../../src/platform/readiness.js';
import { LAG_CAP, lagEvents, projectorLags } from '../../src/read/projector-lag.js';

/** KurrentDB-like positions: commit << 64 | prepare, 100 bytes per event */
const at = (commit: bigint) => (commit << 64n) | commit;

function countingStore(answer: (positions: readonly bigint[], cap: number) => BehindHead) {
  const calls: { positions: readonly bigint[]; cap: number }[] = [];
  return {
    calls,
    store: {
      async countBehindHead(positions: readonly bigint[], cap: number) {
        calls.push({ positions, cap });
        return answer(positions, cap);
      },
    },
  };
}

describe('When the projectors’ lags are computed', () => {
  it('asks the event store once for every projector, and shows its counts, not position distances', async () => {
    const { store, calls } = countingStore(() => ({ head: at(1300n), counts: [1, 0] }));
    const status = await projectorLags(store, [
      { name: 'items', checkpoint: at(1200n) },
      { name: 'people', checkpoint: at(1300n) },
    ]);
    expect(calls).to.deep.equal([{ positions: [at(1200n), at(1300n)], cap: LAG_CAP }]);
    expect(status).to.deep.equal({
      head: at(1300n).toString(),
      projectors: [
        { name: 'items', checkpoint: at(1200n).toString(), lag: '1' },
        { name: 'people', checkpoint: at(1300n).toString(), lag: '0' },
      ],
    });
  });

  it('shows a count at the cap as "cap+", which the gauge reads as the cap', async () => {
    const { store } = countingStore((positions, cap) => ({
      head: 50_000n,
      counts: positions.map(() => cap),
    }));
    const status = await projectorLags(store, [{ name: 'audit', checkpoint: 0n }]);
    expect(status.projectors[0].lag).to.equal('10000+');
    expect(lagEvents('10000+')).to.equal(10_000);
    expect(lagEvents('3')).to.equal(3);
    expect(lagEvents('0')).to.equal(0);
    const small = await projectorLags(store, [{ name: 'audit', checkpoint: 0n }], 5);
    expect(small.projectors[0].lag).to.equal('5+');
  });

  it('keeps readiness working: a capped projector that does not move is reported, one at 0 is not', () => {
    let now = 0;
    const readiness = createReadiness({ stallMs: 1_000, now: () => now });
    const report = (lag: string) => ({
      head: '9',
      projectors: [{ name: 'audit', checkpoint: '1', lag }],
    });
    expect(readiness.reasons(report('10000+'))).to.deep.equal([]);
    now = 2_000;
    expect(readiness.reasons(report('10000+'))).to.deep.equal([
      'projector audit has not moved for 2 s, 10000+ events behind',
    ]);
    expect(readiness.reasons(report('0'))).to.deep.equal([]);
  });
});
