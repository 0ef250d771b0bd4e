/**
 * The Idempotency-Keys of writes that changed nothing. A write's key travels in its events'
 * metadata (batch.ts), so a retry finds it on the stream — but a write that decided no event (a
 * status already set, a tag already on the note) left no trace, and its retry was decided
 * again: after someone else's change in between, the retry undid it ("a retry with the same
 * Idempotency-Key returns the first result", README). Such keys are kept here instead, with the
 * first attempt's request hash and the revision it answered at, in the read store beside the
 * other records no projection makes (rate limits, deliveries): shared by every API process, kept
 * as long as the events' keys are.
 */
import { createHash } from 'node:crypto';
import { type Doc, DuplicateKeyError, type ReadStore } from '../readstore/types.js';
import type { QuietOutcome } from './batch.js';

const QUIET_KEYS_COLLECTION = 'idempotency_quiet_keys';

export interface QuietKeys {
  /** the recorded attempts among `keys` (scoped keys, batch.ts `scopedKey`) on `streamId` */
  find(streamId: string, keys: readonly string[]): Promise<Map<string, QuietOutcome>>;
  /** keep these first attempts, durably, before they are answered */
  record(streamId: string, entries: readonly (QuietOutcome & { key: string })[]): Promise<void>;
}

interface QuietKeyDoc extends Doc {
  hash: string | null;
  revision: number;
}

/** one document per stream and key; the id does not show the key (it may name its sender) */
const idOf = (streamId: string, key: string) =>
  createHash('sha256').update(streamId).update('\u0000').update(key).digest('base64url');

export function quietKeysIn(readStore: ReadStore): QuietKeys {
  const kept = readStore.collection<QuietKeyDoc>(QUIET_KEYS_COLLECTION);
  return {
    async find(streamId, keys) {
      const byId = new Map(keys.map((key) => [idOf(streamId, key), key]));
      const docs = await kept.find({ _id: { $in: [...byId.keys()] } });
      return new Map(
        docs.map((doc) => [
          byId.get(doc._id)!,
          { revision: doc.revision, ...(doc.hash === null ? {} : { hash: doc.hash }) },
        ]),
      );
    },
    async record(streamId, entries) {
      for (const { key, hash, revision } of entries) {
        try {
          await kept.insertOne({ _id: idOf(streamId, key), hash: hash ?? null, revision });
        } catch (error) {
          // the first attempt kept (another process's, at the same moment) is the one answered
          if (!(error instanceof DuplicateKeyError)) throw error;
        }
      }
      await readStore.flush();
    },
  };
}
