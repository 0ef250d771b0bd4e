/** Contract: appending with every expected-revision mode, and concurrent appends. */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { type EventStore, WrongExpectedRevisionError } from '../../src/eventstore/types.js';
import { event, events, type OpenStore, prefix, rejection, useStore } from './contract-fixtures.js';

export function appendContract(open: OpenStore): void {
  const store = useStore(open);

  async function expectWrongRevision(
    s: EventStore,
    stream: string,
    expectedRevision: 'no_stream' | 'stream_exists' | number,
    actual: number | 'no_stream',
  ) {
    const before = await s.readStream(stream);
    const error = await rejection(
      s.appendToStream(stream, events(2, 'Rejected'), { expectedRevision }),
    );
    expect(error).to.be.instanceOf(WrongExpectedRevisionError);
    const typed = error as WrongExpectedRevisionError;
    expect(typed.streamId).to.equal(stream);
    expect(typed.expected).to.equal(expectedRevision);
    expect(typed.actual).to.equal(actual);
    // "wrong expected revision rejected with a typed error and nothing appended"
    const after = await s.readStream(stream);
    expect(after.map((e) => e.id)).to.deep.equal(before.map((e) => e.id));
  }

  describe('When events are appended to a new stream', () => {
    it('gives them consecutive revisions from 0 and reports the last one', async () => {
      const stream = `${prefix()}item-1`;
      const result = await store().appendToStream(stream, events(3), {
        expectedRevision: 'no_stream',
      });
      expect(result.nextExpectedRevision).to.equal(2);
      const read = await store().readStream(stream);
      expect(read.map((e) => e.revision)).to.deep.equal([0, 1, 2]);
      expect(read[2].position).to.equal(result.position);
      expect(read[0].position < read[1].position && read[1].position < read[2].position).to.equal(
        true,
      );
    });

    it('keeps type, data, metadata and a client-chosen id exactly', async () => {
      const stream = `${prefix()}item-1`;
      const id = randomUUID();
      const written = {
        ...event('ItemCreated', {
          title: 'Dark mode',
          tags: ['ui'],
          votes: 0,
          nested: { a: null },
        }),
        id,
      };
      await store().appendToStream(stream, [written]);
      const [read] = await store().readStream(stream);
      expect(read.id).to.equal(id);
      expect(read.type).to.equal('ItemCreated');
      expect(read.data).to.deep.equal(written.data);
      expect(read.metadata).to.deep.equal(written.metadata);
      expect(read.streamId).to.equal(stream);
      expect(typeof read.position).to.equal('bigint');
    });

    it('generates distinct ids when the client gives none', async () => {
      const stream = `${prefix()}item-1`;
      await store().appendToStream(stream, events(3));
      const read = await store().readStream(stream);
      expect(new Set(read.map((e) => e.id)).size).to.equal(3);
    });
  });

  describe('When the expected revision is "any"', () => {
    it('appends to a missing stream and to an existing one', async () => {
      const stream = `${prefix()}item-1`;
      await store().appendToStream(stream, events(1), { expectedRevision: 'any' });
      const result = await store().appendToStream(stream, events(1), { expectedRevision: 'any' });
      expect(result.nextExpectedRevision).to.equal(1);
    });
  });

  describe('When the expected revision is "no_stream"', () => {
    it('rejects an append to an existing stream and appends nothing', async () => {
      const stream = `${prefix()}item-1`;
      await store().appendToStream(stream, events(2));
      await expectWrongRevision(store(), stream, 'no_stream', 1);
    });
  });

  describe('When the expected revision is "stream_exists"', () => {
    it('appends to an existing stream', async () => {
      const stream = `${prefix()}item-1`;
      await store().appendToStream(stream, events(1));
      const result = await store().appendToStream(stream, events(1), {
        expectedRevision: 'stream_exists',
      });
      expect(result.nextExpectedRevision).to.equal(1);
    });

    it('rejects an append to a missing stream and appends nothing', async () => {
      await expectWrongRevision(store(), `${prefix()}item-1`, 'stream_exists', 'no_stream');
    });
  });

  describe('When the expected revision is a number', () => {
    it('appends when it equals the last revision', async () => {
      const stream = `${prefix()}item-1`;
      const first = await store().appendToStream(stream, events(2));
      const result = await store().appendToStream(stream, events(1), {
        expectedRevision: first.nextExpectedRevision,
      });
      expect(result.nextExpectedRevision).to.equal(2);
    });

    it('rejects a stale revision with the actual one and appends nothing', async () => {
      const stream = `${prefix()}item-1`;
      await store().appendToStream(stream, events(3));
      await expectWrongRevision(store(), stream, 1, 2);
    });

    it('rejects a revision ahead of the stream', async () => {
      const stream = `${prefix()}item-1`;
      await store().appendToStream(stream, events(1));
      await expectWrongRevision(store(), stream, 5, 0);
    });

    it('rejects any number for a missing stream', async () => {
      await expectWrongRevision(store(), `${prefix()}item-1`, 0, 'no_stream');
    });

    it('does not leak a rejected append into $all', async () => {
      const p = prefix();
      const head = await store().headPosition();
      await store().appendToStream(`${p}item-1`, events(1));
      await rejection(store().appendToStream(`${p}item-1`, events(3), { expectedRevision: 7 }));
      const all = await store().readAll({ after: head, filter: { streamPrefixes: [p] } });
      expect(all).to.have.length(1);
    });
  });

  describe('When many writers append to one stream with the same expected revision', () => {
    it('lets exactly one win per revision and rejects the others with a typed error', async () => {
      const stream = `${prefix()}item-1`;
      const contenders = 8;
      const rounds = 4;
      let expected: 'no_stream' | number = 'no_stream';
      const winners: string[] = [];
      for (let round = 0; round < rounds; round++) {
        const attempts = Array.from({ length: contenders }, (_, i) => ({
          ...event('Voted', { round, i }),
          id: randomUUID(),
        }));
        const outcomes = await Promise.allSettled(
          attempts.map((e) => store().appendToStream(stream, [e], { expectedRevision: expected })),
        );
        const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [attempts[i].id] : []));
        expect(won, `round ${round}`).to.have.length(1);
        for (const o of outcomes) {
          if (o.status === 'rejected')
            expect(o.reason).to.be.instanceOf(WrongExpectedRevisionError);
        }
        winners.push(won[0]);
        expected = round;
      }
      const read = await store().readStream(stream);
      expect(read.map((e) => e.id)).to.deep.equal(winners);
      expect(read.map((e) => e.revision)).to.deep.equal([0, 1, 2, 3]);
    });

    it('gives concurrent "any" appends contiguous revisions without duplicates', async () => {
      const stream = `${prefix()}item-1`;
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store().appendToStream(stream, events(2))),
      );
      const read = await store().readStream(stream);
      expect(read.map((e) => e.revision)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i));
      expect(new Set(results.map((r) => r.nextExpectedRevision)).size).to.equal(20);
    });

    it('does not fail appends to other streams that run alongside a rejected one', async () => {
      const p = prefix();
      await store().appendToStream(`${p}taken`, events(1));
      const outcomes = await Promise.allSettled([
        store().appendToStream(`${p}a`, events(1), { expectedRevision: 'no_stream' }),
        store().appendToStream(`${p}taken`, events(1), { expectedRevision: 'no_stream' }),
        store().appendToStream(`${p}b`, events(1), { expectedRevision: 'no_stream' }),
      ]);
      expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
      expect(await store().readStream(`${p}taken`)).to.have.length(1);
    });
  });
}
