/**
 * Position guards make projector writes idempotent: each document remembers, in `_pos`, the
 * global position of the last event applied to it, and an update only applies when the event is
 * newer. Positions are stored as fixed-width hex strings because they can exceed 2^63
 * (KurrentDB's commit/prepare pair) and MongoDB compares strings byte-wise.
 */
import type { Collection, Doc, Filter, Update } from '../../src/readstore/types.js';
import { DuplicateKeyError } from '../../src/readstore/types.js';

export function positionKey(position: bigint): string {
  return position.toString(16).padStart(32, '0');
}

/**
 * Apply `update` to document `_id` unless it already reflects `position` or later.
 * With `upsert`, a missing document is created. Returns whether anything was applied.
 */
export async function guardedUpdate<T extends Doc>(
  collection: Collection<T>,
  _id: string,
  position: bigint,
  update: Update,
  options: { upsert?: boolean } = {},
): Promise<boolean> {
  const key = positionKey(position);
  const set = { ...((update.$set as Record<string, unknown>) ?? {}), _pos: key };
  try {
    const result = await collection.updateOne(
      { _id, $or: [{ _pos: { $lt: key } }, { _pos: { $exists: false } }] },
      { ...update, $set: set },
      options,
    );
    return result.modifiedCount + result.upsertedCount > 0;
  } catch (error) {
    // The document exists and is newer: the upsert's insert collided with it. Already applied.
    if (options.upsert && error instanceof DuplicateKeyError) return false;
    throw error;
  }
}

/** `guardedUpdate` for every document `filter` matches: each applies it unless it is as new. */
export async function guardedUpdateMany<T extends Doc>(
  collection: Collection<T>,
  filter: Filter,
  position: bigint,
  update: Update,
): Promise<void> {
  const key = positionKey(position);
  await collection.updateMany(
    { ...filter, $or: [{ _pos: { $lt: key } }, { _pos: { $exists: false } }] },
    { ...update, $set: { ...((update.$set as Record<string, unknown>) ?? {}), _pos: key } },
  );
}

/** Insert a document once; a replay finds it and leaves it alone. */
export async function insertOnce<T extends Doc>(
  collection: Collection<T>,
  doc: T,
  position: bigint,
): Promise<boolean> {
  try {
    await collection.insertOne({ ...doc, _pos: positionKey(position) });
    return true;
  } catch (error) {
    if (error instanceof DuplicateKeyError) return false;
    throw error;
  }
}
