/**
 * Contract: counting the events behind the head (projection lag). The port: "how many events a
 * subscription from it has still to deliver up to that head (system events excluded …), each
 * count stopping at `cap`" — a count of events, never a difference of positions ("A position is
 * only ever compared, never computed with", src/eventstore/types.ts). On a shared server other
 * writers may append meanwhile, so each expectation is what `$all` holds up to the head reported.
 */
import { expect } from 'chai';
import { events, type OpenStore, prefix, useStore } from './contract-fixtures.js';

export function countContract(open: OpenStore): void {
  const store = useStore(open);

  /** What a subscription from `after` delivers up to `head`, counted by reading `$all`. */
  async function delivered(after: bigint, head: bigint): Promise<number> {
    const all = await store().readAll({ after });
    return all.filter((e) => e.position <= head).length;
  }

  describe('When the events behind the head are counted', () => {
    it('counts events, one per event appended, for every position asked about in one call', async () => {
      const p = prefix();
      const start = await store().headPosition();
      const first = await store().appendToStream(`${p}a`, events(1));
      await store().appendToStream(`${p}b`, events(2));
      const last = await store().appendToStream(`${p}a`, events(1));
      const { head, counts } = await store().countBehindHead(
        [start, first.position, last.position],
        1000,
      );
      expect(head >= last.position).to.equal(true);
      expect(counts).to.deep.equal([
        await delivered(start, head),
        await delivered(first.position, head),
        await delivered(last.position, head),
      ]);
      // without writers beside this test these are 4, 3 and 0; never a distance between positions
      expect(counts[0]).to.be.at.least(4).and.below(1000);
      expect(counts[1]).to.be.at.least(3).and.below(counts[0]);
    });

    it('answers 0 at the head, and the head as headPosition() does', async () => {
      await store().appendToStream(`${prefix()}a`, events(2));
      const head = await store().headPosition();
      const counted = await store().countBehindHead([head], 10);
      expect(counted.head >= head).to.equal(true);
      expect(counted.counts).to.deep.equal([await delivered(head, counted.head)]);
    });

    it('stops each count at the cap, however far behind the position is', async () => {
      const p = prefix();
      const start = await store().headPosition();
      const appended = await store().appendToStream(`${p}a`, events(7));
      const all = (await store().readAll({ after: start })).filter(
        (e) => e.position <= appended.position,
      );
      const third = all[all.length - 3].position; // 2 events of ours after it
      const { counts } = await store().countBehindHead([start, 0n, third], 5);
      expect(counts[0], 'seven behind, cap 5').to.equal(5);
      expect(counts[1], 'the whole log behind, cap 5').to.equal(5);
      expect(counts[2]).to.be.at.least(2).and.at.most(5);
    });

    it('answers an empty list with the head alone, and refuses a cap below 1', async () => {
      await store().appendToStream(`${prefix()}a`, events(1));
      const head = await store().headPosition();
      const counted = await store().countBehindHead([], 10);
      expect(counted.counts).to.deep.equal([]);
      expect(counted.head >= head).to.equal(true);
      const error = await store()
        .countBehindHead([head], 0)
        .catch((e: unknown) => e);
      expect(error).to.be.instanceOf(RangeError);
    });
  });
}
