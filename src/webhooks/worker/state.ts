/**
 * The worker's own state in the read store, apart from every projector: its checkpoint in the
 * log (so rebuilds and replays of read models never move it) and the lease that lets one worker
 * deliver while another stands by. The lease is a document only a holder whose lease has not
 * run out can take over; it is renewed well before it runs out.
 */
import { guardedUpdate } from '../../../projections/shared/guard.js';
import type { Doc, ReadStore } from '../../readstore/types.js';
import { type Lease, leaseIn } from '../../platform/lease.js';

interface WorkerDoc extends Doc {
  /** checkpoint: the last position handled, as a decimal string */
  position?: string;
  /** checkpoint: `position` as a position key, which the save compares (absent before it was kept) */
  _pos?: string;
}

const WORKER = 'webhook_worker';
const LEASE = 'lease';
const CHECKPOINT = 'checkpoint';
const workerOf = (store: ReadStore) => store.collection<WorkerDoc>(WORKER);

/** Where the worker lease lives in a read store every worker process shares (MongoDB). */
export const WORKER_LEASE = { collection: WORKER, id: LEASE } as const;

export const workerLeaseIn = (store: ReadStore): Lease => leaseIn(store, WORKER, LEASE);

/** Take or renew the lease; false while another holder's lease runs. */
export function takeLease(
  store: ReadStore,
  input: { holder: string; now: number; ttlMs: number },
): Promise<boolean> {
  return workerLeaseIn(store).take(input.holder, input.now, input.ttlMs);
}

export async function loadCheckpoint(store: ReadStore): Promise<bigint> {
  const doc = await workerOf(store).findOne({ _id: CHECKPOINT });
  return doc?.position ? BigInt(doc.position) : 0n;
}

/**
 * Store the checkpoint, only forward: kept when the stored one is not behind `position`. A worker
 * paused past its lease (GC, SIGSTOP, a laptop asleep) wakes with an older checkpoint than the
 * worker that took over has stored, and saves it as it stands down; written over the newer one,
 * the next holder (or a restart) would handle those events again. The position guard every
 * projector write uses (`_pos`, fixed-width text that compares as the positions do) is the
 * fence: one conditional update, on every read store.
 */
export async function saveCheckpoint(store: ReadStore, position: bigint): Promise<void> {
  await guardedUpdate(
    workerOf(store),
    CHECKPOINT,
    position,
    { $set: { position: position.toString() } },
    { upsert: true },
  );
}
