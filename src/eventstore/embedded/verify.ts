/**
 * Walks the whole log in position order and recomputes the hash chain (chain.ts): every row's
 * stored hash must equal SHA-256 over the previous row's hash and its own bytes. The walk reads
 * pages, so a log of any size verifies in bounded memory.
 */
import { chainHash, GENESIS } from './chain.js';
import type { StoredRow } from './reader.js';

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
  readStored: (after: bigint, limit: number) => Promise<StoredRow[]>,
  onProgress?: (verified: number) => void,
): Promise<ChainReport> {
  let previous = GENESIS;
  let after = 0n;
  let events = 0;
  for (;;) {
    const rows = await readStored(after, PAGE);
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
