/**
 * Import a workspace export (format.ts) into an empty instance. The whole file is checked first
 * — its header, every line's hash in the file's chain, positions in order, the closing line's
 * count and hash — and a file that does not check out is refused before anything is written.
 * Then its events are written exactly as stored:
 *   - into the embedded log under their original positions (EmbeddedEventStore.importEvents),
 *     so the instance answers with the same positions as the source (history, audit trail);
 *   - into another adapter through the port, stream by stream with expected revisions (that
 *     server assigns its own positions).
 * The target's own hash chain covers the imported events like any append.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { isEmbeddedEventStore, type ImportedRow } from '../../eventstore/embedded/index.js';
import type { EventStore } from '../../eventstore/types.js';
import { eventCheck } from './event-check.js';
import { ExportEnd, ExportEvent, ExportHeader, headerHash, lineHash } from './format.js';

export class ExportFileError extends Error {
  override readonly name = 'ExportFileError';
}

export interface ImportReport {
  workspace: ExportHeader['workspace'];
  events: number;
}

const CHUNK = 1_000;

/** Reads the file line by line and checks it; `onEvent` gets each event once it checked out. */
async function walk(
  file: string,
  onEvent: (event: ExportEvent, header: ExportHeader, index: number) => Promise<void>,
): Promise<ImportReport> {
  const lines = createInterface({
    input: createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let header: ExportHeader | undefined;
  let previous = '';
  let lastPosition = 0n;
  let events = 0;
  let ended = false;
  let number = 0;
  let check: ReturnType<typeof eventCheck> | undefined;
  const refuse = (reason: string) => new ExportFileError(`${file} line ${number}: ${reason}`);
  for await (const text of lines) {
    number++;
    if (ended) throw refuse('a line after the closing line');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw refuse('not JSON');
    }
    if (!header) {
      const parsed = ExportHeader.safeParse(value);
      if (!parsed.success) throw refuse('not the header of a workspace export (format, version)');
      header = parsed.data;
      previous = headerHash(text);
      continue;
    }
    if (value && typeof value === 'object' && 'end' in value) {
      const end = ExportEnd.safeParse(value);
      if (!end.success) throw refuse('a malformed closing line');
      if (end.data.events !== events || end.data.hash !== previous) {
        throw refuse(
          `the chain is broken: the closing line does not match the ${events} events before it`,
        );
      }
      ended = true;
      continue;
    }
    const parsed = ExportEvent.safeParse(value);
    if (!parsed.success) throw refuse('a malformed event line');
    const event = parsed.data;
    const { hash: _hash, logHash: _logHash, ...bytes } = event;
    const expected = lineHash(previous, bytes);
    if (expected !== event.hash) {
      throw refuse(
        `the chain is broken at position ${event.position} (the line was changed, or one before it removed)`,
      );
    }
    const position = BigInt(event.position);
    if (position <= lastPosition) throw refuse(`position ${event.position} is out of order`);
    if (header.source.adapter === 'embedded' && position > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw refuse(`position ${event.position} is past any embedded log's`);
    }
    check ??= eventCheck(header.workspace.id);
    const problem = check(event);
    if (problem) throw refuse(problem);
    lastPosition = position;
    previous = expected;
    await onEvent(event, header, events);
    events++;
  }
  if (!header) throw new ExportFileError(`${file} is empty`);
  if (!ended) throw new ExportFileError(`${file} is cut short: its closing line is missing`);
  return { workspace: header.workspace, events };
}

/** Checks the whole file without writing anything. */
export const checkExportFile = (file: string) => walk(file, async () => {});

export async function importWorkspace(log: EventStore, file: string): Promise<ImportReport> {
  await checkExportFile(file);
  if ((await log.readAll({ maxCount: 1 })).length > 0) {
    throw new ExportFileError(
      'this instance is not empty: import-workspace needs an event log without any event',
    );
  }
  let chunk: ImportedRow[] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    if (isEmbeddedEventStore(log)) await log.importEvents(chunk);
    else for (const row of chunk) await appendThroughPort(log, row);
    chunk = [];
  };
  const report = await walk(file, async (event, header, index) => {
    chunk.push({
      // positions of an embedded source are row ids (safe integers) and are kept; a KurrentDB
      // source's do not fit this log's, so its events are numbered anew, in the same order
      position: header.source.adapter === 'embedded' ? Number(event.position) : index + 1,
      streamId: event.streamId,
      revision: event.revision,
      id: event.id,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
    });
    if (chunk.length >= CHUNK) await flush();
  });
  await flush();
  return report;
}

async function appendThroughPort(log: EventStore, row: ImportedRow): Promise<void> {
  await log.appendToStream(
    row.streamId,
    [
      {
        id: row.id,
        type: row.type,
        data: JSON.parse(row.data),
        metadata: JSON.parse(row.metadata),
      },
    ],
    { expectedRevision: row.revision === 0 ? 'no_stream' : row.revision - 1 },
  );
}
