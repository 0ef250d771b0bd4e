/**
 * `countBehindHead` on KurrentDB. Positions here are (commit, prepare) byte offsets packed into
 * one bigint (position.ts): one event behind is about 2^64 apart, so lag is counted by reading
 * `$all`, never by subtracting. The read goes back from the end, so its first event is the head
 * and it stops once it passes the lowest position asked about, or has `cap` events: one read,
 * however many projectors and however far behind, ending at its first event when all are caught
 * up. (Forwards from the lowest checkpoint, `cap` events would not reach the checkpoints of the
 * projectors further on when one is far behind: a stuck one beside caught-up ones.)
 */
import { BACKWARDS, END, type KurrentDBClient } from '@kurrent/kurrentdb-client';
import type { BehindHead } from '../types.js';
import { assertCap, countsAbove, lowestOf } from '../count-behind.js';
import { isSystemEvent, toServerFilter } from './mapping.js';
import { encodePosition } from './position.js';

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
  // or stream here, as fromAllStream drops them). No server-side maxCount, as in readAll: what
  // is dropped here must not use up the count; leaving the loop cancels the read.
  for await (const resolved of client.readAll({
    direction: BACKWARDS,
    fromPosition: END,
    filter: toServerFilter(),
  })) {
    const recorded = resolved.event;
    if (!recorded?.position || isSystemEvent(recorded)) continue;
    const position = encodePosition(recorded.position);
    head ??= position;
    if (lowest === undefined || position <= lowest) break;
    newestFirst.push(position);
    if (newestFirst.length >= cap) break;
  }
  return { head: head ?? 0n, counts: countsAbove(newestFirst, positions, cap) };
}
