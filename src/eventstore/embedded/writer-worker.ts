/**
 * The writer thread: owns this process's only write connection. It commits one batch (every
 * append queued while the previous commit was syncing) per transaction, so concurrent writers
 * share one fsync. Inside the transaction the appends are checked against their expected
 * revisions in queue order and their rows inserted together (batch-plan.ts); if an insert fails
 * with the transaction intact, the batch is redone append by append under savepoints, so a
 * failing append adds nothing and does not fail its neighbours.
 *
 * Revisions are checked against an in-memory map (stream -> last revision), not a SQLite index
 * (stream-index.ts says why). The map is sound across processes: every transaction first takes
 * SQLite's write lock (BEGIN IMMEDIATE, which also gives it the latest snapshot), then indexes
 * the rows other processes committed since its last look, and only then checks and inserts.
 * Nobody else can commit until it releases the lock, so no two writers can both see revision n
 * as free. The map changes only after COMMIT succeeds.
 *
 * The hash chain (chain.ts) is stored beside the rows one transaction later: each transaction
 * first stores the hashes of the rows committed before it, and the writer hashes a batch after
 * acknowledging it (chain-writer.ts says why).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import {
  type BatchPlan,
  type ImportedRow,
  planBatch,
  planImport,
  ROW_COLUMNS,
  type RowValue,
  VALUES_PER_ROW,
} from './batch-plan.js';
import type { ChainHead } from './chain-table.js';
import { CHAIN_SEAL_MS, createChainWriter } from './chain-writer.js';
import { applyPragmas } from './schema.js';
import { createTailScanner } from './stream-index.js';
import {
  type FromWriter,
  packResults,
  type ToWriter,
  unpackBatch,
  type WireAppend,
  type WireResult,
  type WriterInit,
} from './writer-protocol.js';

const port = parentPort;
if (!port) throw new Error('writer-worker must run as a worker thread');
const send = (message: FromWriter) =>
  message.kind === 'batch-done'
    ? port.postMessage(message, [message.results.outcomes.buffer as ArrayBuffer])
    : port.postMessage(message);

/** Rows per INSERT statement; 128 x 8 values stays far below SQLite's 32766 variables. */
const ROWS_PER_STATEMENT = 128;

function openWriter(init: WriterInit) {
  const db = new Database(init.path, { fileMustExist: true });
  applyPragmas(db);
  const scanTail = createTailScanner(db);
  const revisions = new Map<string, number>();
  const indexRow = (_position: number, streamId: string, revision: number) => {
    if (revision > (revisions.get(streamId) ?? -1)) revisions.set(streamId, revision);
  };
  const lastRevision = (streamId: string) => revisions.get(streamId);
  /** Every committed row up to this position is in `revisions`; none is above it. */
  let indexed = scanTail(0, indexRow);
  const chain = createChainWriter(db, init.chain !== false);
  /** The chain as the open transaction leaves it, published when it commits. */
  let staged: ChainHead | undefined;

  // Prepared once: db.exec would parse these statements again for every batch.
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const savepoint = db.prepare('SAVEPOINT one_append');
  const release = db.prepare('RELEASE one_append');
  const rollbackTo = db.prepare('ROLLBACK TO one_append');
  const inserts = new Map<number, Database.Statement>();

  function insertStatement(rows: number): Database.Statement {
    let statement = inserts.get(rows);
    if (!statement) {
      const tuple = `(${'?, '.repeat(VALUES_PER_ROW - 1)}?)`;
      statement = db.prepare(
        `INSERT INTO es_events (${ROW_COLUMNS}) VALUES ${Array(rows).fill(tuple).join(', ')}`,
      );
      inserts.set(rows, statement);
    }
    return statement;
  }

  function insertRows(values: RowValue[]): void {
    const perStatement = ROWS_PER_STATEMENT * VALUES_PER_ROW;
    for (let from = 0; from < values.length; from += perStatement) {
      const chunk = values.slice(from, from + perStatement);
      insertStatement(chunk.length / VALUES_PER_ROW).run(chunk);
    }
  }

  /** The whole batch planned in memory, then inserted with a few multi-row statements. */
  function commitPlanned(appends: WireAppend[]): BatchPlan {
    const plan = planBatch(appends, lastRevision, indexed);
    insertRows(plan.values);
    commit.run();
    return plan;
  }

  /**
   * Fallback when an insert of the planned batch failed while the transaction survived (a
   * statement-level error such as an oversized value): append by append, each under a
   * savepoint, so the failing append adds nothing and does not fail its neighbours.
   */
  function commitOneByOne(appends: WireAppend[]): BatchPlan {
    const results: WireResult[] = [];
    const revised = new Map<string, number>();
    const after = indexed;
    let lastPosition = indexed;
    for (const append of appends) {
      const lookup = (streamId: string) => revised.get(streamId) ?? lastRevision(streamId);
      const plan = planBatch([append], lookup, lastPosition);
      savepoint.run();
      try {
        insertRows(plan.values);
        release.run();
      } catch (error) {
        // Throws on when SQLite already ended the transaction (I/O error): the batch fails whole.
        rollbackTo.run();
        release.run();
        results.push({ kind: 'failed', message: (error as Error).message });
        continue;
      }
      results.push(plan.results[0]);
      for (const [streamId, revision] of plan.staged) revised.set(streamId, revision);
      lastPosition = plan.lastPosition;
    }
    commit.run();
    // no values: the next transaction chains these rows from the file
    return { results, values: [], staged: revised, after, lastPosition };
  }

  function inTransaction<T>(work: () => T): T {
    begin.run();
    try {
      // Under the write lock: rows other processes committed since our last transaction, then
      // the chain of every row before this transaction's.
      indexed = scanTail(indexed, indexRow);
      staged = chain.seal(indexed);
      return work();
    } catch (error) {
      if (db.inTransaction) rollback.run();
      throw error;
    }
  }

  function commitBatch(appends: WireAppend[]): BatchPlan {
    let plan: BatchPlan;
    try {
      plan = inTransaction(() => commitPlanned(appends));
    } catch (error) {
      if (!(error instanceof Database.SqliteError) || !isStatementError(error)) throw error;
      plan = inTransaction(() => commitOneByOne(appends));
    }
    // Published only after COMMIT: a failed commit leaves the index as the file is.
    publish(plan);
    return plan;
  }

  function publish(plan: Pick<BatchPlan, 'staged' | 'lastPosition'>): void {
    for (const [streamId, revision] of plan.staged) revisions.set(streamId, revision);
    indexed = plan.lastPosition;
    chain.publish(staged);
  }

  /** An import chunk: all of it or nothing (planImport throws before anything is inserted). */
  function commitImport(rows: ImportedRow[]): number {
    const plan = inTransaction(() => {
      const planned = planImport(rows, lastRevision, indexed);
      insertRows(planned.values);
      staged = chain.chainNow(staged, planned.values);
      commit.run();
      return planned;
    });
    publish(plan);
    return plan.lastPosition;
  }

  /**
   * Stores the chain of every committed row, other processes' included; returns the log's last
   * position, up to which every row is now chained (unless this log keeps no chain).
   */
  function seal(): number {
    if (init.chain === false) return indexed;
    inTransaction(() => commit.run());
    publish({ staged: new Map(), lastPosition: indexed });
    return indexed;
  }

  // A crash between a batch's commit and the next transaction left its rows unchained.
  if (chain.behind(indexed)) seal();

  return {
    db,
    commitBatch,
    commitImport,
    seal,
    /** After the batch's acknowledgement: its hashes, for the next transaction to store. */
    acknowledged: (plan: BatchPlan) => chain.acknowledged(plan.after, plan.values),
    behind: () => chain.behind(indexed),
  };
}

/**
 * Errors that undo one statement and leave the transaction usable. Anything else (I/O error,
 * disk full, corruption) fails the whole batch at once.
 */
function isStatementError(error: InstanceType<typeof Database.SqliteError>): boolean {
  return ['SQLITE_CONSTRAINT', 'SQLITE_TOOBIG', 'SQLITE_MISMATCH', 'SQLITE_RANGE'].some((code) =>
    error.code.startsWith(code),
  );
}

let writer: ReturnType<typeof openWriter>;
let sealTimer: NodeJS.Timeout | undefined;
let lastCommitAt = 0;

/** Writes pause: store the last batch's chain once CHAIN_SEAL_MS passed without a commit. */
function sealWhenQuiet(): void {
  lastCommitAt = performance.now();
  sealTimer ??= setTimeout(sealIfQuiet, CHAIN_SEAL_MS);
}

function sealIfQuiet(): void {
  sealTimer = undefined;
  const quiet = performance.now() - lastCommitAt;
  if (quiet < CHAIN_SEAL_MS) {
    sealTimer = setTimeout(sealIfQuiet, CHAIN_SEAL_MS - quiet);
    return;
  }
  try {
    if (writer.behind()) writer.seal();
  } catch {
    // The next transaction stores it; a file that cannot be written fails that one.
  }
}

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
      let plan: BatchPlan;
      try {
        plan = writer.commitBatch(unpackBatch(message.batch));
      } catch (error) {
        send({ kind: 'batch-failed', id: message.id, message: (error as Error).message });
        return;
      }
      send({ kind: 'batch-done', id: message.id, results: packResults(plan.results) });
      writer.acknowledged(plan);
      sealWhenQuiet();
      return;
    }
    case 'import':
    case 'seal': {
      try {
        const position =
          message.kind === 'import' ? writer.commitImport(message.rows) : writer.seal();
        send({ kind: 'done', id: message.id, position });
      } catch (error) {
        send({ kind: 'batch-failed', id: message.id, message: (error as Error).message });
      }
      return;
    }
    case 'close': {
      clearTimeout(sealTimer);
      try {
        if (writer.behind()) writer.seal();
      } catch {
        // left for the next writer to open the file, which chains an unchained tail first
      }
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
