/**
 * `readAll` on KurrentDB: `$all` forwards after an exclusive position, asking the server for no
 * more events than the read keeps. The server's `fromPosition` is inclusive, and what the server
 * cannot drop (the boundary event, a system event, the part of a filter it cannot apply) is
 * dropped here by `fromAllStream`; so each request asks for the events still wanted plus one,
 * and when the drops left it short of `maxCount` with the server's answer full, the next request
 * goes on from the last event the server sent.
 *
 * Without a count the request asks for everything after the position (the client sends 2^53 - 1)
 * and leaves it to the server to stop when the reader does. KurrentDB would: it reads `$all` in
 * batches of 32 into a bounded channel (KurrentDB, src/KurrentDB.Core/Services/Transport/
 * Enumerators/Enumerator.cs, ReadAllForwardsFiltered.cs). A server that builds its whole answer
 * first — the workplace's stand-in does — spends time in proportion to the log after the
 * position instead: measured there, 1,000 events read 100,000 from the end took 12–13 s without
 * the count, and a list_events page (ten such chunks) 73 s on a 40,000-event log; with it,
 * 0.3–0.5 s for 1,000 events 40,000 from the end, and 1–4 s for a page of ten chunks.
 */
import { FORWARDS, type KurrentDBClient, START } from '@kurrent/kurrentdb-client';
import type { ReadAllOptions, RecordedEvent } from '../types.js';
import { fromAllStream, toServerFilter } from './mapping.js';
import { decodePosition, encodePosition } from './position.js';

export async function readAllForwards(
  client: Pick<KurrentDBClient, 'readAll'>,
  opts: ReadAllOptions = {},
): Promise<RecordedEvent[]> {
  const { maxCount, filter } = opts;
  if (maxCount === 0) return [];
  const events: RecordedEvent[] = [];
  let after = opts.after;
  for (;;) {
    // the boundary event at `after` comes back first: one more than still wanted
    const asked = maxCount === undefined ? undefined : maxCount - events.length + 1;
    let sent = 0;
    let last: bigint | undefined;
    for await (const resolved of client.readAll({
      direction: FORWARDS,
      fromPosition: after !== undefined ? decodePosition(after) : START,
      filter: toServerFilter(filter),
      ...(asked !== undefined ? { maxCount: asked } : {}),
    })) {
      sent++;
      if (resolved.event?.position) last = encodePosition(resolved.event.position);
      const event = fromAllStream(resolved, after, filter);
      if (!event) continue;
      events.push(event);
      if (maxCount !== undefined && events.length >= maxCount) return events;
    }
    // a short answer is the end of the log; a full one that moved nowhere would loop forever
    if (asked === undefined || sent < asked || last === undefined) return events;
    if (after !== undefined && last <= after) return events;
    after = last;
  }
}
