/**
 * The worker's own state in the read store, apart from every projector: its checkpoint in the
 * log (so rebuilds and replays of read models never move it) and the lease that lets one worker
 * deliver while another stands by. The lease is a document only a holder whose lease has not
 * run out can take over; it is renewed well before it runs out.
 */
import type { Doc, ReadStore } from '../../readstore/types.js';
import { type Lease, leaseIn } from '../../platform/lease.js';

interface WorkerDoc extends Doc {
  /** checkpoint: the last position handled, as a decimal string */
  position?: string;
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

export async function saveCheckpoint(store: ReadStore, position: bigint): Promise<void> {
  await workerOf(store).updateOne(
    { _id: CHECKPOINT },
    { $set: { position: position.toString() } },
    { upsert: true },
  );
}
