/**
 * The tamper-evident hash chain of the embedded log. Every row carries
 *
 *   hash = SHA-256(previous row's hash as hex ‖ the row's bytes)
 *
 * where "the row's bytes" are its stream, revision, event id, type, data and metadata exactly as
 * stored, each length-prefixed so no two different rows encode alike. The first row chains to
 * GENESIS. The writer thread computes it while planning a batch (about 1 µs per event, one-shot
 * `crypto.hash` over a string); every append of a group waits for it, and `npm run bench:store`
 * measures what that costs the append rate.
 *
 * What it proves: a row edited, removed or inserted anywhere before the last row breaks the
 * chain at that point (`verify` names the position). What it does not: someone able to write the
 * file can recompute every hash after their edit, and cutting rows off the END leaves a shorter,
 * intact chain — only a head hash recorded elsewhere (an export's header, a note of `verify`'s
 * output) detects those.
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

/** The hex hash of a row chained after `previous` (hex). */
export function chainHash(previous: string, row: ChainedRow): string {
  return hash(
    'sha256',
    `${previous}\n${row.streamId.length}:${row.streamId}\n${row.revision}\n${row.eventId.length}:${row.eventId}\n${row.type.length}:${row.type}\n${row.data.length}:${row.data}\n${row.metadata}`,
    'hex',
  );
}

/**
 * Stored as 32 raw bytes (half the size of hex text in every row and every WAL frame), decoded
 * by SQLite in the insert: the writer binds the hex text. Decoding it in JavaScript first cost
 * as much as the hash itself (`Buffer.from(hex, 'hex')` ~0.8 µs; a small Uint8Array lives in
 * the JavaScript heap and is copied out when bound) on the writer thread every append waits for.
 * An empty text (a log without the chain) stores an empty blob.
 */
export const STORED_HASH = 'unhex(?)';
export const hashHex = (bytes: Uint8Array | null): string =>
  bytes ? Buffer.from(bytes).toString('hex') : '';
