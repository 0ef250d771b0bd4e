/**
 * Walks the whole log in position order and recomputes the hash chain (chain.ts): every row's
 * stored hash must equal SHA-256 over the previous row's hash and its own bytes. The chain is
 * sealed first (the newest batch's is stored with the next transaction, chain-writer.ts), and
 * the walk covers the rows up to there: rows a running service appends meanwhile are left for
 * the next run. The walk reads pages, so a log of any size verifies in bounded memory.
 */
import { chainHash, GENESIS } from './chain.js';
import type { EmbeddedEventStore } from './index.js';

export type ChainReport =
  | { intact: true; events: number; headPosition: bigint | null; headHash: string }
  | {
      intact: false;
      /** events before the first broken one, all verified */
      events: number;
      brokenAt: bigint;
      reason: string;
    };

const PAGE = 2_000;

export async function verifyChain(
  store: Pick<EmbeddedEventStore, 'readStored' | 'sealChain'>,
  onProgress?: (verified: number) => void,
): Promise<ChainReport> {
  const through = await store.sealChain();
  let previous = GENESIS;
  let after = 0n;
  let events = 0;
  for (;;) {
    const rows = (await store.readStored(after, PAGE)).filter((row) => row.position <= through);
    for (const row of rows) {
      if (row.hash === '') {
        return { intact: false, events, brokenAt: row.position, reason: 'the row has no hash' };
      }
      const expected = chainHash(previous, {
        streamId: row.streamId,
        revision: row.revision,
        eventId: row.id,
        type: row.type,
        data: row.data,
        metadata: row.metadata,
      });
      if (expected !== row.hash) {
        return {
          intact: false,
          events,
          brokenAt: row.position,
          reason:
            'its hash does not match its bytes and the hash before it (the row, or one removed before it, was changed)',
        };
      }
      previous = row.hash;
      after = row.position;
      events++;
    }
    onProgress?.(events);
    if (rows.length < PAGE) {
      return { intact: true, events, headPosition: events ? after : null, headHash: previous };
    }
  }
}
