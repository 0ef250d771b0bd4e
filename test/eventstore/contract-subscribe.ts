/** Contract: catch-up subscriptions to `$all`, from the start and from a checkpoint. */
import { expect } from 'chai';
import type { RecordedEvent } from '../../src/eventstore/types.js';
import {
  collect,
  event,
  events,
  ids,
  type OpenStore,
  prefix,
  useStore,
} from './contract-fixtures.js';

export function subscribeContract(open: OpenStore): void {
  const store = useStore(open);

  /** Appends `total` events to `writers` streams under prefix `p`, writers running concurrently. */
  async function appendInBackground(p: string, writers: number, perWriter: number) {
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < perWriter; i++) {
          await store().appendToStream(`${p}w${w}`, [event('Ticked', { w, i })]);
        }
      }),
    );
  }

  describe('When a subscription starts from the beginning', () => {
    it('replays history and then delivers live appends, in $all order', async () => {
      const p = prefix();
      await store().appendToStream(`${p}a`, events(3));
      const subscription = store().subscribeToAll({ filter: { streamPrefixes: [p] } });
      try {
        const live = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          await store().appendToStream(`${p}b`, events(2));
        })();
        const seen = await collect(subscription, (s) => s.length >= 5);
        await live;
        const all = await store().readAll({ filter: { streamPrefixes: [p] } });
        expect(ids(seen)).to.deep.equal(ids(all));
        expect(seen.map((e) => e.streamId.slice(p.length))).to.deep.equal([
          'a',
          'a',
          'a',
          'b',
          'b',
        ]);
      } finally {
        await subscription.close();
      }
    });

    it('delivers only events matching its filter', async () => {
      const p = prefix();
      const head = await store().headPosition();
      const subscription = store().subscribeToAll({
        after: head,
        filter: { streamPrefixes: [p], eventTypes: ['Wanted'] },
      });
      try {
        await store().appendToStream(`${p}a`, [
          event('Noise'),
          event('Wanted', { k: 1 }),
          event('Noise'),
        ]);
        await store().appendToStream(`${p}b`, [event('Wanted', { k: 2 })]);
        const seen = await collect(subscription, (s) => s.length >= 2);
        expect(seen.map((e) => (e.data as { k: number }).k)).to.deep.equal([1, 2]);
      } finally {
        await subscription.close();
      }
    });
  });

  describe('When a subscription resumes from a checkpoint while appends continue', () => {
    it('delivers every event after the checkpoint exactly once, with no gaps', async () => {
      const p = prefix();
      const head = await store().headPosition();
      const writers = 5;
      const perWriter = 40;
      const total = writers * perWriter;
      const appending = appendInBackground(p, writers, perWriter);

      const first = store().subscribeToAll({ after: head, filter: { streamPrefixes: [p] } });
      let beforeStop: RecordedEvent[];
      try {
        beforeStop = await collect(first, (s) => s.length >= 37);
      } finally {
        await first.close();
      }
      const checkpoint = beforeStop[beforeStop.length - 1].position;

      const second = store().subscribeToAll({ after: checkpoint, filter: { streamPrefixes: [p] } });
      let afterResume: RecordedEvent[];
      try {
        afterResume = await collect(second, (s) => beforeStop.length + s.length >= total);
      } finally {
        await second.close();
      }
      await appending;

      const delivered = [...beforeStop, ...afterResume];
      const committed = await store().readAll({ after: head, filter: { streamPrefixes: [p] } });
      expect(committed).to.have.length(total);
      expect(new Set(ids(delivered)).size).to.equal(total);
      expect(ids(delivered)).to.deep.equal(ids(committed));
      for (let i = 1; i < delivered.length; i++) {
        expect(delivered[i].position > delivered[i - 1].position).to.equal(true);
      }
    });
  });

  describe('When a subscription is closed', () => {
    it('ends its iteration', async () => {
      const p = prefix();
      const head = await store().headPosition();
      const subscription = store().subscribeToAll({ after: head, filter: { streamPrefixes: [p] } });
      const iterator = subscription[Symbol.asyncIterator]();
      const pending = iterator.next();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await subscription.close();
      const result = await Promise.race([
        pending,
        new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 2000)),
      ]);
      expect(result).to.not.equal('hung');
      expect((result as IteratorResult<RecordedEvent>).done).to.equal(true);
    });
  });
}
