/**
 * The writer thread: owns the only write connection. It commits one batch (every append queued
 * while the previous commit was syncing) per transaction, so concurrent writers share one fsync.
 * Each append is checked against its expected revision inside the transaction, in queue order,
 * under a savepoint: a failing append adds nothing and does not fail its neighbours.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { ExpectedRevision } from '../types.js';
import { applyPragmas } from './schema.js';
import type {
  FromWriter,
  ToWriter,
  WireAppend,
  WireResult,
  WriterInit,
} from './writer-protocol.js';

const port = parentPort;
if (!port) throw new Error('writer-worker must run as a worker thread');
const send = (message: FromWriter) => port.postMessage(message);

function openWriter(init: WriterInit) {
  const db = new Database(init.path, { fileMustExist: true });
  applyPragmas(db);
  const lastRevision = db
    .prepare('SELECT revision FROM es_events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1')
    .pluck();
  const insert = db.prepare(
    'INSERT INTO es_events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
  );

  // Prepared once: db.exec would parse these statements again for every append.
  const savepoint = db.prepare('SAVEPOINT one_append');
  const release = db.prepare('RELEASE one_append');
  const rollbackTo = db.prepare('ROLLBACK TO one_append');

  function revisionMismatch(expected: ExpectedRevision, actual: number | undefined): boolean {
    if (expected === 'any') return false;
    if (expected === 'no_stream') return actual !== undefined;
    if (expected === 'stream_exists') return actual === undefined;
    return actual !== expected;
  }

  function appendOne(append: WireAppend): WireResult {
    const actual = lastRevision.get(append.streamId) as number | undefined;
    if (revisionMismatch(append.expected, actual)) {
      return { kind: 'wrong-revision', actual: actual ?? 'no_stream' };
    }
    let revision = actual ?? -1;
    let position = 0n;
    for (const event of append.events) {
      revision += 1;
      const info = insert.run(
        append.streamId,
        revision,
        event.id,
        event.type,
        event.data,
        event.metadata,
      );
      position = BigInt(info.lastInsertRowid);
    }
    return { kind: 'appended', nextExpectedRevision: revision, position };
  }

  function commitBatch(appends: WireAppend[]): WireResult[] {
    const results: WireResult[] = [];
    db.exec('BEGIN IMMEDIATE');
    try {
      for (const append of appends) {
        savepoint.run();
        try {
          results.push(appendOne(append));
          release.run();
        } catch (error) {
          rollbackTo.run();
          release.run();
          results.push({ kind: 'failed', message: (error as Error).message });
        }
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
    return results;
  }

  return { db, commitBatch };
}

let writer: ReturnType<typeof openWriter>;
try {
  writer = openWriter(workerData as WriterInit);
  send({ kind: 'ready' });
} catch (error) {
  send({ kind: 'open-failed', message: (error as Error).message });
  process.exit(1);
}

port.on('message', (message: ToWriter) => {
  switch (message.kind) {
    case 'batch': {
      try {
        send({ kind: 'batch-done', id: message.id, results: writer.commitBatch(message.appends) });
      } catch (error) {
        send({ kind: 'batch-failed', id: message.id, message: (error as Error).message });
      }
      return;
    }
    case 'close': {
      writer.db.close();
      send({ kind: 'closed' });
      port.close();
      return;
    }
    default: {
      const _exhaustive: never = message;
      return _exhaustive;
    }
  }
});
