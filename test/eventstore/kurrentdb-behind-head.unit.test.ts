/**
 * Projection lag on KurrentDB, without a server. The brief: lag is "a count of events of the log a
 * projector has not applied yet, on every event store" — KurrentDB positions are byte offsets
 * packed as commit << 64 | prepare, so one event behind must read 1, not ~1.8e21; system events
 * are not counted (subscriptions never deliver them); and a status call on a projector millions
 * of events behind "costs a bounded read, not the whole log".
 */
import { BACKWARDS, END, EVENT_TYPE } from '@kurrent/kurrentdb-client';
import { expect } from 'chai';
import { countBehindHead } from '../../src/eventstore/kurrentdb/behind-head.js';

interface Raw {
  commit: bigint;
  type?: string;
  streamId?: string;
  isJson?: boolean;
}

/**
 * A client whose backwards `$all` read yields `log` newest first from `fromPosition` (END, or
 * before a position, as the stand-in reads), at most `maxCount`; it records what was pulled and
 * what the server built: the whole answer up front, as the workplace's stand-in builds it.
 */
function fakeClient(log: readonly Raw[]) {
  const seen = { options: undefined as unknown, pulled: 0, built: 0 };
  const client = {
    readAll(options: { fromPosition: unknown; maxCount?: number | bigint }) {
      seen.options ??= options;
      const from = options.fromPosition;
      const before = typeof from === 'object' ? (from as { commit: bigint }).commit : undefined;
      const answer = [...log]
        .reverse()
        .filter((raw) => before === undefined || raw.commit < before)
        .slice(0, Number(options.maxCount ?? Number.MAX_SAFE_INTEGER));
      seen.built += answer.length;
      return (async function* () {
        for (const raw of answer) {
          seen.pulled++;
          yield {
            event: {
              streamId: raw.streamId ?? 'item-w1.A-1',
              type: raw.type ?? 'ItemVoted',
              isJson: raw.isJson ?? true,
              // deliberately not JSON: counting must not need the data
              data: raw.isJson === false ? new Uint8Array([0xff]) : {},
              position: { commit: raw.commit, prepare: raw.commit },
            },
          };
        }
      })();
    },
  };
  return { client: client as never, seen };
}

const at = (commit: bigint) => (commit << 64n) | commit;
/** ten events, 100 bytes apart, the way the stand-in places them */
const TEN: Raw[] = Array.from({ length: 10 }, (_, i) => ({ commit: 1000n + 100n * BigInt(i) }));

describe('When KurrentDB counts the events behind its head', () => {
  it('counts one event behind as 1 — not the 2^64-scaled distance between positions', async () => {
    const { client } = fakeClient(TEN);
    const { head, counts } = await countBehindHead(client, [at(1800n), at(1900n), at(1500n)], 100);
    expect(head).to.equal(at(1900n));
    expect(counts).to.deep.equal([1, 0, 4]);
  });

  it('reads backwards from the end with the subscriptions’ filter (system events excluded)', async () => {
    const { client, seen } = fakeClient(TEN);
    await countBehindHead(client, [at(1900n)], 100);
    const options = seen.options as { direction: string; fromPosition: unknown; filter: object };
    expect(options.direction).to.equal(BACKWARDS);
    expect(options.fromPosition).to.equal(END);
    expect(options.filter).to.include({ filterOn: EVENT_TYPE });
    const regex = new RegExp((options.filter as { regex: string }).regex);
    expect(regex.test('$statistics-collected')).to.equal(false);
  });

  it('does not count system events the server let through, binary ones included', async () => {
    const log: Raw[] = [
      { commit: 1000n },
      { commit: 1100n },
      { commit: 1200n, type: '$metadata', isJson: false },
      { commit: 1300n, streamId: '$projections-x-result', type: 'Result' },
      { commit: 1400n },
      { commit: 1500n, type: '$>' },
    ];
    const { client } = fakeClient(log);
    const { head, counts } = await countBehindHead(client, [at(1000n), at(1100n)], 100);
    expect(head, 'the head is the newest event a projector can see').to.equal(at(1400n));
    expect(counts).to.deep.equal([2, 1]);
  });

  it('stops at the lowest position asked about: one event read when every projector is caught up', async () => {
    const { client, seen } = fakeClient(TEN);
    const { counts } = await countBehindHead(client, [at(1900n), at(1900n)], 100);
    expect(counts).to.deep.equal([0, 0]);
    expect(seen.pulled).to.equal(1);
  });

  it('reads at most cap events however far behind, and counts cap for "cap or more"', async () => {
    const many: Raw[] = Array.from({ length: 50_000 }, (_, i) => ({ commit: BigInt(i + 1) }));
    const { client, seen } = fakeClient(many);
    const { counts } = await countBehindHead(client, [0n, at(49_998n), at(49_000n)], 1000);
    expect(counts).to.deep.equal([1000, 2, 1000]);
    expect(seen.pulled).to.equal(1000);
  });

  // README: "/readyz answers 503 … when the event store does not tell where its head is within
  // 2 s": a probe of caught-up projectors must cost a few events on any server, not the log
  it('asks the server for a bounded answer: caught up on a 50,000-event log, it builds 32', async () => {
    const many: Raw[] = Array.from({ length: 50_000 }, (_, i) => ({ commit: BigInt(i + 1) }));
    const { client, seen } = fakeClient(many);
    const { counts } = await countBehindHead(client, [at(50_000n)], 10_000);
    expect(counts).to.deep.equal([0]);
    expect(seen.built).to.equal(32);
  });

  it('goes on past a full batch of system events to the head and the lag behind it', async () => {
    const log: Raw[] = [
      { commit: 1n },
      { commit: 2n },
      ...Array.from({ length: 40 }, (_, i) => ({ commit: BigInt(i + 3), type: '$stats' })),
    ];
    const { client } = fakeClient(log);
    const { head, counts } = await countBehindHead(client, [at(1n)], 100);
    expect(head).to.equal(at(2n));
    expect(counts).to.deep.equal([1]);
  });

  it('answers an empty log with head 0 and nothing behind', async () => {
    const { client } = fakeClient([]);
    expect(await countBehindHead(client, [0n], 10)).to.deep.equal({ head: 0n, counts: [0] });
  });
});
