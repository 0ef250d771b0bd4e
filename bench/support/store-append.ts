/** Appends per second through the embedded store's port, one writer and many concurrent ones. */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { openEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import type { NewEvent } from '../../src/eventstore/types.js';
import { type Rate, rate } from './raw-append.js';

/** One event of a fixed size, close to a typical item event. */
export function benchEvent(type: string, n: number, padding: string): NewEvent {
  return {
    type,
    data: { n, title: padding },
    metadata: {
      actor: 'person-1',
      via: 'pat:bench',
      occurredAt: 1_700_000_000_000 + n,
      correlationId: randomUUID(),
      causationId: null,
    },
  };
}

export async function storeAppends(
  dir: string,
  writers: number,
  seconds: number,
  padding: string,
  options: { chain?: boolean } = {},
): Promise<Rate> {
  const chain = options.chain ?? true;
  const store = await openEmbeddedEventStore({
    path: join(dir, `store-${writers}${chain ? '' : '-nochain'}-${randomUUID()}.db`),
    chain,
  });
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let appends = 0;
  try {
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        let expected: 'no_stream' | number = 'no_stream';
        while (performance.now() < deadline) {
          const result = await store.appendToStream(
            `item-${w}`,
            [benchEvent('ItemVoted', appends, padding)],
            {
              expectedRevision: expected,
            },
          );
          expected = result.nextExpectedRevision;
          appends++;
        }
      }),
    );
    return rate(appends, started);
  } finally {
    await store.close();
  }
}
