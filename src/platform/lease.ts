/**
 * A lease in the read store: one holder at a time. The holder renews it well before it runs out;
 * anyone may take it once it has run out. The webhook worker and the projector each hold one, so
 * a second process of their kind stands by and takes over when the first dies.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Doc, ReadStore } from '../readstore/types.js';
import { DuplicateKeyError } from '../readstore/types.js';

interface LeaseDoc extends Doc {
  holder?: string;
  /** lease end, real milliseconds since the epoch */
  until?: number;
}

/** Who holds a lease, and until when unless renewed (real milliseconds since the epoch). */
export interface LeaseHolder {
  holder: string;
  until: number;
}

export interface Lease {
  /** take or renew; false while another holder's lease runs */
  take(holder: string, now: number, ttlMs: number): Promise<boolean>;
  /** end it now, so a standby need not wait for it to run out */
  release(holder: string): Promise<void>;
  /** who holds it at `now`; undefined when it is free or run out */
  holder(now: number): Promise<LeaseHolder | undefined>;
}

/**
 * The label a holder takes a lease as: `<kind> pid <pid> on <host> (<8 hex>)`, unique per holder.
 * One form for every lease (the projector's, the webhook worker's), so what an operator reads of
 * who holds one — `rebuild`'s and `import-workspace`'s refusals, /readyz `heldBy`, the logs —
 * names a process the same way. `kind` says what holds it: `server`, `projector`, `rebuild`…
 */
export function holderLabel(kind: string): string {
  return `${kind} pid ${process.pid} on ${hostname()} (${randomUUID().slice(0, 8)})`;
}

/** ` (<holder>)`, as a refusal names the holder after "is running"; nothing when none is known. */
export function heldByNote(heldBy: string | undefined): string {
  return heldBy ? ` (${heldBy})` : '';
}

export function leaseIn(store: ReadStore, collection: string, id = 'lease'): Lease {
  const col = store.collection<LeaseDoc>(collection);
  return {
    async take(holder, now, ttlMs) {
      try {
        const result = await col.updateOne(
          { _id: id, $or: [{ holder }, { until: { $lt: now } }] },
          { $set: { holder, until: now + ttlMs } },
          { upsert: true },
        );
        return result.matchedCount + result.upsertedCount > 0;
      } catch (error) {
        if (error instanceof DuplicateKeyError) return false;
        throw error;
      }
    },
    async release(holder) {
      await col.updateOne({ _id: id, holder }, { $set: { until: 0 } });
    },
    async holder(now) {
      const doc = await col.findOne({ _id: id });
      const until = doc?.until ?? 0;
      return doc?.holder && until >= now ? { holder: doc.holder, until } : undefined;
    },
  };
}
