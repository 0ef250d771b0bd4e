/**
 * The tamper-evident hash chain of the embedded log. Every row has a hash
 *
 *   hash = SHA-256(previous row's hash as hex ‖ the row's bytes)
 *
 * where "the row's bytes" are its stream, revision, event id, type, data and metadata exactly as
 * stored, each length-prefixed so no two different rows encode alike. The first row chains to
 * GENESIS. The hashes are kept beside the rows, in es_chain (chain-table.ts); the writer thread
 * computes them after it acknowledged the rows' batch and stores them with its next transaction
 * (chain-writer.ts says why and what that means).
 *
 * What it proves: a row edited, removed or inserted anywhere before the last chained row breaks
 * the chain at that point (`verify` names the position). What it does not: someone able to write
 * the file can recompute every hash after their edit, and cutting rows (or their hashes) off the
 * END leaves a shorter, intact chain — only a head hash recorded elsewhere (an export's header, a
 * note of `verify`'s output) detects those.
 */
import { hash } from 'node:crypto';

/** The "previous hash" of the first row of a log. */
export const GENESIS = '0'.repeat(64);

/** The stored fields that are hashed, in this order (the position is not: order is the chain). */
export interface ChainedRow {
  streamId: string;
  revision: number;
  eventId: string;
  type: string;
  data: string;
  metadata: string;
}

/** The hex hash of a row chained after `previous` (hex): ~1 µs for a typical event. */
export function chainHash(previous: string, row: ChainedRow): string {
  return hash(
    'sha256',
    `${previous}\n${row.streamId.length}:${row.streamId}\n${row.revision}\n${row.eventId.length}:${row.eventId}\n${row.type.length}:${row.type}\n${row.data.length}:${row.data}\n${row.metadata}`,
    'hex',
  );
}
