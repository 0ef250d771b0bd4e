/**
 * Pure translations between the read-store port and MongoDB, kept apart from the driver calls
 * so they are unit-tested without a server.
 */
import {
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { DuplicateKeyError, ReadStoreUnavailableError } from '../types.js';

/** Collection holding one document per projector: `{ _id: projector, position: '<decimal>' }`. */
export const CHECKPOINTS_COLLECTION = '_checkpoints';

export interface CheckpointDoc {
  _id: string;
  position: string;
}

/** Positions can exceed 2^63 (KurrentDB commit positions), so they are stored as decimal text. */
export function encodeCheckpoint(projector: string, position: bigint): CheckpointDoc {
  if (position < 0n) throw new RangeError(`checkpoint of ${projector} is negative: ${position}`);
  return { _id: projector, position: position.toString() };
}

/**
 * The bulk write that stores a checkpoint only forward (ReadStore `flush`): one pipeline update,
 * upserting, that keeps the stored position when it is not behind. Decimal text without leading
 * zeros: the longer is the greater, and of two as long the greater in text order (a missing
 * document reads as '', behind every position).
 */
export function advanceCheckpoint(projector: string, position: bigint) {
  const doc = encodeCheckpoint(projector, position);
  const stored = { $ifNull: ['$position', ''] };
  const given = doc.position;
  const ahead = {
    $or: [
      { $lt: [{ $strLenCP: stored }, given.length] },
      { $and: [{ $eq: [{ $strLenCP: stored }, given.length] }, { $lt: [stored, given] }] },
    ],
  };
  return {
    updateOne: {
      filter: { _id: doc._id },
      // $literal: a position is text that must never be read as a field path or operator
      update: [{ $set: { position: { $cond: [ahead, { $literal: given }, '$position'] } } }],
      upsert: true,
    },
  };
}

export function decodeCheckpoint(doc: { _id: unknown; position: unknown }): [string, bigint] {
  if (
    typeof doc._id !== 'string' ||
    typeof doc.position !== 'string' ||
    !/^\d+$/.test(doc.position)
  ) {
    throw new TypeError(`malformed checkpoint document: ${JSON.stringify(doc)}`);
  }
  return [doc._id, BigInt(doc.position)];
}

/** MongoDB's duplicate-key error (E11000), raised directly or inside a bulk write. */
export function isDuplicateKey(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, writeErrors } = error as { code?: unknown; writeErrors?: unknown };
  if (code === 11000 || code === 11001) return true;
  return (
    Array.isArray(writeErrors) && writeErrors.some((w) => (w as { code?: unknown })?.code === 11000)
  );
}

/**
 * The server's answers that mean "not now, ask again": the SDAM specification's "not primary"
 * and "node is recovering" codes (a replica set electing, a server shutting down or starting
 * up) and the retryable-read codes. A restart under load produces them for a moment.
 */
const TRANSIENT_SERVER_CODES = new Set([
  10107, // NotWritablePrimary
  13435, // NotPrimaryNoSecondaryOk
  10058, // LegacyNotPrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13436, // NotPrimaryOrSecondary
  189, // PrimarySteppedDown
  91, // ShutdownInProgress
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  9001, // SocketException
  262, // ExceededTimeLimit
  134, // ReadConcernMajorityNotAvailableYet
]);

/**
 * Socket errors the driver lets through unwrapped: it rethrows the error of a write that waited
 * for 'drain' as it came (seen when the MongoDB side went away mid-write: "This socket has been
 * ended by the other party", EPIPE).
 */
const SOCKET_ERROR_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTCONN',
]);

/**
 * The driver cannot reach the server (refused, reset, timed out, no server selectable, the
 * client closed) or the server answers that it cannot serve right now: the store is
 * unavailable, not the request wrong — the driver reconnects by itself, so the caller may try
 * again shortly.
 */
export function isUnreachable(error: unknown): boolean {
  if (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoServerClosedError
  ) {
    return true;
  }
  if (error instanceof MongoServerError) {
    return (
      (typeof error.code === 'number' && TRANSIENT_SERVER_CODES.has(error.code)) ||
      error.hasErrorLabel('RetryableWriteError')
    );
  }
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && SOCKET_ERROR_CODES.has(code);
}

/** The port's error for a driver error (duplicate key, unreachable), or the error unchanged. */
export function mapDriverError(collection: string, error: unknown): unknown {
  if (isUnreachable(error)) {
    return new ReadStoreUnavailableError(
      `MongoDB cannot be reached (${(error as Error).message}); the driver reconnects by itself`,
    );
  }
  if (!isDuplicateKey(error)) return error;
  const keyValue = (error as { keyValue?: unknown }).keyValue;
  const key = keyValue !== undefined ? JSON.stringify(keyValue) : describe(error);
  return new DuplicateKeyError(collection, key);
}

function describe(error: unknown): string {
  const message =
    typeof (error as { message?: unknown })?.message === 'string'
      ? (error as { message: string }).message
      : String(error);
  // "E11000 duplicate key error collection: db.c index: x_1 dup key: { x: 1 }"
  const match = /dup key: (.*)$/.exec(message);
  return match ? match[1]! : message;
}

/** "namespace not found" when dropping a collection that does not exist: not an error here. */
export function isNamespaceNotFound(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, codeName } = error as { code?: unknown; codeName?: unknown };
  return code === 26 || codeName === 'NamespaceNotFound';
}
