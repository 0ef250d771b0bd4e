/**
 * The log exactly as stored, page by page: the embedded store hands out its rows' bytes and
 * chain hashes; another adapter hands out parsed events, written back as JSON text (the same
 * text our adapters stored) without a log hash.
 */
import { isEmbeddedEventStore } from '../../eventstore/embedded/index.js';
import type { StoredRow } from '../../eventstore/embedded/reader.js';
import type { EventStore } from '../../eventstore/types.js';

/** A stored row; `logHash` is the embedded log's chain hash, null from another adapter. */
export type SourceRow = Omit<StoredRow, 'hash'> & { logHash: string | null };

const PAGE = 2_000;

export async function* storedRows(store: EventStore): AsyncGenerator<SourceRow[]> {
  let after = 0n;
  for (;;) {
    const page: SourceRow[] = isEmbeddedEventStore(store)
      ? (await store.readStored(after, PAGE)).map(({ hash, ...row }) => ({
          ...row,
          logHash: hash || null,
        }))
      : (await store.readAll({ after, maxCount: PAGE })).map((e) => ({
          position: e.position,
          streamId: e.streamId,
          revision: e.revision,
          id: e.id,
          type: e.type,
          data: JSON.stringify(e.data ?? null),
          metadata: JSON.stringify(e.metadata),
          logHash: null,
        }));
    if (page.length === 0) return;
    yield page;
    after = page.at(-1)!.position;
    if (page.length < PAGE) return;
  }
}
