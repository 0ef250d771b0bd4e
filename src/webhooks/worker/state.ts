/**
 * The worker's own state in the read store, apart from every projector: its checkpoint in the
 * log (so rebuilds and replays of read models never move it) and the lease that lets one worker
 * deliver while another stands by. The lease is a document only a holder whose lease has not
 * run out can take over; it is renewed well before it runs out.
 */
import type { Doc, ReadStore } from '../../readstore/types.js';
import { DuplicateKeyError } from '../../readstore/types.js';

interface WorkerDoc extends Doc {
  holder?: string;
  /** lease end, real milliseconds since the epoch */
  until?: number;
  /** checkpoint: the last position handled, as a decimal string */
  position?: string;
}

const WORKER = 'webhook_worker';
const LEASE = 'lease';
const CHECKPOINT = 'checkpoint';
const workerOf = (store: ReadStore) => store.collection<WorkerDoc>(WORKER);

/** Take or renew the lease; false while another holder's lease runs. */
export async function takeLease(
  store: ReadStore,
  input: { holder: string; now: number; ttlMs: number },
): Promise<boolean> {
  try {
    const result = await workerOf(store).updateOne(
      { _id: LEASE, $or: [{ holder: input.holder }, { until: { $lt: input.now } }] },
      { $set: { holder: input.holder, until: input.now + input.ttlMs } },
      { upsert: true },
    );
    return result.matchedCount + result.upsertedCount > 0;
  } catch (error) {
    if (error instanceof DuplicateKeyError) return false;
    throw error;
  }
}

export async function releaseLease(store: ReadStore, holder: string): Promise<void> {
  await workerOf(store).updateOne({ _id: LEASE, holder }, { $set: { until: 0 } });
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
