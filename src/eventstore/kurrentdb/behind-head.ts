/**
 * `countBehindHead` on KurrentDB. Positions here are (commit, prepare) byte offsets packed into
 * one bigint (position.ts): one event behind is about 2^64 apart, so lag is counted by reading
 * `$all`, never by subtracting. The read goes back from the end, so its first event is the head
 * and it stops once it passes the lowest position asked about, or has `cap` events: one walk
 * back, however many projectors and however far behind, ending at its first event when all are
 * caught up. (Forwards from the lowest checkpoint, `cap` events would not reach the checkpoints
 * of the projectors further on when one is far behind: a stuck one beside caught-up ones.)
 */
import { BACKWARDS, END, type KurrentDBClient, type Position } from '@kurrent/kurrentdb-client';
import type { BehindHead } from '../types.js';
import { assertCap, countsAbove, lowestOf } from '../count-behind.js';
import { isSystemEvent, toServerFilter } from './mapping.js';
import { decodePosition, encodePosition } from './position.js';

const FIRST_BATCH = 32;
const MAX_BATCH = 4_096;

export async function countBehindHead(
  client: Pick<KurrentDBClient, 'readAll'>,
  positions: readonly bigint[],
  cap: number,
): Promise<BehindHead> {
  assertCap(cap);
  const lowest = lowestOf(positions);
  let head: bigint | undefined;
  const newestFirst: bigint[] = [];
  // The subscriptions' own filter (no filter: system events excluded on the server, and by type
  // or stream here, as fromAllStream drops them). In batches asked with a count, growing from
  // 32 (a caught-up projector costs 32 events, not the log) and going on from the last event of
  // a full one: a server that builds a read's whole answer first (the workplace's stand-in)
  // would otherwise build the whole log per probe (read-all.ts).
  let from: Position | typeof END = END;
  let batch = FIRST_BATCH;
  let last: bigint | undefined;
  reading: for (;;) {
    let sent = 0;
    for await (const resolved of client.readAll({
      direction: BACKWARDS,
      fromPosition: from,
      maxCount: batch,
      filter: toServerFilter(),
    })) {
      sent++;
      const recorded = resolved.event;
      if (!recorded?.position) continue;
      const position = encodePosition(recorded.position);
      // the event a batch went on from, should the server send it again
      if (last !== undefined && position >= last) continue;
      last = position;
      if (isSystemEvent(recorded)) continue;
      head ??= position;
      if (lowest === undefined || position <= lowest) break reading;
      newestFirst.push(position);
      if (newestFirst.length >= cap) break reading;
    }
    if (sent < batch || last === undefined) break;
    from = decodePosition(last);
    batch = Math.min(batch * 2, MAX_BATCH);
  }
  return { head: head ?? 0n, counts: countsAbove(newestFirst, positions, cap) };
}
