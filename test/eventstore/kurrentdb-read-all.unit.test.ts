/**
 * `readAll` on KurrentDB, without a server: the client stands in for one that builds a read's
 * whole answer before sending it, as the workplace's stand-in does (a KurrentDB reads in batches
 * of 32 and stops with the reader). The rule (src/eventstore/kurrentdb/read-all.ts): a read asks
 * the server for no more events than it keeps — one chunk of a list_events page costs its chunk,
 * not the log behind it — and still answers the port's contract (types.ts: `after` exclusive,
 * `maxCount` events kept, system events and the part of a filter the server cannot apply dropped).
 */
import { FORWARDS, START } from '@kurrent/kurrentdb-client';
import { expect } from 'chai';
import { createKurrentEventStore } from '../../src/eventstore/kurrentdb/index.js';
import { encodePosition } from '../../src/eventstore/kurrentdb/position.js';
import type { ReadAllOptions } from '../../src/eventstore/types.js';

interface Raw {
  streamId: string;
  type: string;
}

interface Asked {
  fromPosition: typeof START | { commit: bigint; prepare: bigint };
  maxCount?: number | bigint;
  filter: { filterOn: string; regex?: string; prefixes?: string[] };
}

/** `log` at positions 1000, 1100, …; `built` counts the events the server put in its answers */
function eagerServer(log: readonly Raw[]) {
  const seen = { built: 0, requests: [] as Asked[] };
  const at = (i: number) => 1000n + 100n * BigInt(i);
  const client = {
    readAll(options: Asked & { direction: unknown }) {
      expect(options.direction).to.equal(FORWARDS);
      seen.requests.push(options);
      const { fromPosition, maxCount, filter } = options;
      const from = fromPosition === START ? 0n : fromPosition.commit;
      const keep = (raw: Raw) =>
        filter.prefixes
          ? filter.prefixes.some((p) => raw.streamId.startsWith(p))
          : new RegExp(filter.regex!).test(raw.type);
      const answer = [];
      for (const [i, raw] of log.entries()) {
        if (answer.length >= Number(maxCount ?? Number.MAX_SAFE_INTEGER)) break;
        if (at(i) < from || !keep(raw)) continue;
        seen.built++;
        answer.push({
          event: {
            id: `e${i}`,
            streamId: raw.streamId,
            type: raw.type,
            revision: 0n,
            isJson: true,
            data: {},
            metadata: { occurredAt: 0, correlationId: 'c', actor: null, causationId: null },
            created: new Date(0),
            position: { commit: at(i), prepare: at(i) },
          },
        });
      }
      return (async function* () {
        yield* answer;
      })();
    },
  };
  const store = createKurrentEventStore(client as never);
  const read = async (options: ReadAllOptions) =>
    (await store.readAll(options)).map((e) => `${e.streamId}/${e.type}`);
  return { read, seen, position: (i: number) => encodePosition({ commit: at(i), prepare: at(i) }) };
}

const items = (n: number): Raw[] =>
  Array.from({ length: n }, (_, i) => ({
    streamId: `item-w${i % 3}.A-${i}`,
    type: 'ItemCaptured',
  }));

describe('When the KurrentDB adapter reads $all (a server that builds its whole answer)', () => {
  it('asks for what it keeps: 1,000 events 20,000 from the end cost 1,001, not 20,000', async () => {
    const { read, seen, position } = eagerServer(items(21_000));
    const got = await read({ after: position(999), maxCount: 1000 });
    expect(got).to.have.length(1000);
    expect(got[0]).to.equal('item-w1.A-1000/ItemCaptured');
    // the one more is the boundary event: the server's fromPosition is inclusive
    expect(seen.built).to.equal(1001);
  });

  it('reads on when what the server cannot drop leaves the answer short, and stops at the end', async () => {
    // prefixes go to the server, types are checked here: half of w0's events are dropped here
    const log: Raw[] = Array.from({ length: 40 }, (_, i) => ({
      streamId: i % 2 ? 'item-w0.A-1' : 'item-w1.A-1',
      type: i % 4 === 1 ? 'ItemCaptured' : 'ItemEdited',
    }));
    const filter = { streamPrefixes: ['item-w0.'], eventTypes: ['ItemCaptured'] };
    const { read, position } = eagerServer(log);
    expect(await read({ after: position(1), maxCount: 3, filter })).to.deep.equal(
      Array(3).fill('item-w0.A-1/ItemCaptured'),
    );
    // from the start: every one of the ten there are, though 100 were asked for
    expect(await read({ maxCount: 100, filter })).to.have.length(10);
  });

  it('drops system events the server let through and reads everything without a count', async () => {
    const log: Raw[] = [
      { streamId: 'item-w0.A-1', type: 'ItemCaptured' },
      { streamId: '$projections-x', type: 'Result' },
      { streamId: 'item-w0.A-1', type: 'ItemEdited' },
      { streamId: 'item-w0.A-2', type: 'ItemCaptured' },
    ];
    const { read, position } = eagerServer(log);
    expect(await read({ after: position(0), maxCount: 1 })).to.deep.equal([
      'item-w0.A-1/ItemEdited',
    ]);
    expect(await read({})).to.have.length(3);
    expect(await read({ after: position(3), maxCount: 5 })).to.deep.equal([]);
  });
});
