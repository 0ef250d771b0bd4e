/**
 * The writer decides a whole batch in memory before inserting it (batch-plan.ts).
 * Issue 2: "wrong expected revision rejected with a typed error and nothing appended";
 * "concurrent appends to one stream — exactly one wins per revision"; "$all order equals commit
 * order".
 */
import { expect } from 'chai';
import {
  planBatch,
  planImport,
  type RowValue,
  VALUES_PER_ROW,
} from '../../src/eventstore/embedded/batch-plan.js';
import { chainHash, GENESIS } from '../../src/eventstore/embedded/chain.js';
import { chainRange } from '../../src/eventstore/embedded/chain-table.js';
import type { WireAppend } from '../../src/eventstore/embedded/writer-protocol.js';

const wire = (streamId: string, expected: WireAppend['expected'], count: number): WireAppend => ({
  streamId,
  expected,
  events: Array.from({ length: count }, (_, n) => ({
    id: `${streamId}-${n}`,
    type: 'Happened',
    data: '{}',
    metadata: '{}',
  })),
});

/** [position, stream, revision] of every planned row. */
const rows = (values: RowValue[]) =>
  Array.from({ length: values.length / VALUES_PER_ROW }, (_, i) =>
    values.slice(i * VALUES_PER_ROW, i * VALUES_PER_ROW + 3),
  );

describe('Embedded writer batch plan', () => {
  const committed = new Map([['existing', 4]]);
  const lookup = (streamId: string) => committed.get(streamId);

  describe('When appends in one batch target the same stream with the same expectation', () => {
    it('lets the first win and reports the revision it wrote to the second', () => {
      const plan = planBatch(
        [wire('existing', 4, 2), wire('existing', 4, 1), wire('existing', 6, 1)],
        lookup,
        100,
      );
      expect(plan.results).to.deep.equal([
        { kind: 'appended', nextExpectedRevision: 6, position: 102n },
        { kind: 'wrong-revision', actual: 6 },
        { kind: 'appended', nextExpectedRevision: 7, position: 103n },
      ]);
      expect(rows(plan.values)).to.deep.equal([
        [101, 'existing', 5],
        [102, 'existing', 6],
        [103, 'existing', 7],
      ]);
      expect(plan.staged).to.deep.equal(new Map([['existing', 7]]));
      expect(plan.lastPosition).to.equal(103);
    });
  });

  describe('When expectations name missing or existing streams', () => {
    it('checks no_stream, stream_exists and any against committed and staged revisions', () => {
      const plan = planBatch(
        [
          wire('existing', 'no_stream', 1),
          wire('fresh', 'stream_exists', 1),
          wire('fresh', 'no_stream', 1),
          wire('fresh', 'stream_exists', 1),
          wire('fresh', 'any', 1),
        ],
        lookup,
        0,
      );
      expect(plan.results.map((r) => r.kind)).to.deep.equal([
        'wrong-revision',
        'wrong-revision',
        'appended',
        'appended',
        'appended',
      ]);
      expect(plan.results[0]).to.deep.equal({ kind: 'wrong-revision', actual: 4 });
      expect(plan.results[1]).to.deep.equal({ kind: 'wrong-revision', actual: 'no_stream' });
      expect(rows(plan.values)).to.deep.equal([
        [1, 'fresh', 0],
        [2, 'fresh', 1],
        [3, 'fresh', 2],
      ]);
    });
  });

  describe('When an append carries no events', () => {
    it('checks its expectation and writes nothing', () => {
      const plan = planBatch([wire('existing', 4, 0), wire('fresh', 0, 0)], lookup, 9);
      expect(plan.results).to.deep.equal([
        { kind: 'appended', nextExpectedRevision: 4, position: 0n },
        { kind: 'wrong-revision', actual: 'no_stream' },
      ]);
      expect(plan.values).to.deep.equal([]);
      expect(plan.staged.size).to.equal(0);
      expect(plan.lastPosition).to.equal(9);
    });
  });

  describe('When a planned batch is chained (issue 15: "each appended event carries a hash chaining it to the previous event of the log")', () => {
    it('chains every written row to the one before, one range for the batch, refused appends left out', () => {
      const start = 'ab'.repeat(32);
      const plan = planBatch(
        [wire('existing', 4, 2), wire('existing', 1, 1), wire('fresh', 'no_stream', 1)],
        lookup,
        100,
      );
      const range = chainRange(start, plan.values);
      const written = Array.from({ length: plan.values.length / VALUES_PER_ROW }, (_, i) =>
        plan.values.slice(i * VALUES_PER_ROW, (i + 1) * VALUES_PER_ROW),
      );
      expect(written).to.have.length(3);
      let previous = start;
      written.forEach(([, streamId, revision, eventId, type, data, metadata], i) => {
        previous = chainHash(previous, {
          streamId: streamId as string,
          revision: revision as number,
          eventId: eventId as string,
          type: type as string,
          data: data as string,
          metadata: metadata as string,
        });
        expect(range.hex.slice(64 * i, 64 * (i + 1))).to.equal(previous);
      });
      expect(range).to.deep.include({ first: 101, last: 103, head: previous });
      expect(range.hex).to.have.length(3 * 64);
    });
  });

  describe('When an import brings rows with their own positions', () => {
    const row = (position: number, streamId: string, revision: number) => ({
      position,
      streamId,
      revision,
      id: `e${position}`,
      type: 'Happened',
      data: '{}',
      metadata: '{}',
    });

    it('keeps the positions (gaps allowed), one range over them', () => {
      const plan = planImport(
        [row(7, 'fresh', 0), row(12, 'existing', 5), row(40, 'fresh', 1)],
        lookup,
        3,
      );
      expect(rows(plan.values)).to.deep.equal([
        [7, 'fresh', 0],
        [12, 'existing', 5],
        [40, 'fresh', 1],
      ]);
      expect(plan.lastPosition).to.equal(40);
      expect(chainRange(GENESIS, plan.values)).to.deep.include({ first: 7, last: 40 });
    });

    it('refuses a position at or below the log head, and a revision gap', () => {
      expect(() => planImport([row(3, 'fresh', 0)], lookup, 3)).to.throw(
        /does not follow position 3/,
      );
      expect(() => planImport([row(5, 'existing', 6)], lookup, 3)).to.throw(/expects revision 5/);
    });
  });
});
