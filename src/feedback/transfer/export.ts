/**
 * Export one workspace's events to a JSON-lines file (format.ts): a first pass over the log
 * finds the workspace's streams (select.ts), a second writes their events in log order with the
 * file's hash chain. The file is written beside its final name and renamed when complete, so a
 * failed export never leaves a file that looks whole (a killed one leaves its empty claim of the
 * name, which import refuses as empty).
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { isEmbeddedEventStore } from '../../eventstore/embedded/index.js';
import type { EventStore } from '../../eventstore/types.js';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportHeader,
  headerHash,
  lineHash,
} from './format.js';
import { workspaceStreams } from './select.js';
import { storedRows } from './source.js';

/**
 * An export holds what the data file holds of a workspace (its people's e-mail addresses, every
 * item and reply): its owner's alone, like DATA_DIR's files (README, Security: Files).
 */
const EXPORT_FILE_MODE = 0o600;

export interface ExportReport {
  events: number;
  streams: number;
}

export async function exportWorkspace(
  log: EventStore,
  workspace: { id: string; slug: string; name: string },
  file: string,
  progress?: (written: number, scanned: bigint, head: bigint) => void,
): Promise<ExportReport> {
  // the embedded log's newest rows are chained a transaction late: seal, and export up to there
  const head = isEmbeddedEventStore(log) ? await log.sealChain() : await log.headPosition();
  const streams = await workspaceStreams(workspace.id, storedRows(log));
  // claim the name ('wx' fails on anything there, even a file made while this export ran): an
  // export never replaces a file; the complete one is renamed over this empty claim
  closeSync(openSync(file, 'wx', EXPORT_FILE_MODE));
  const temporary = `${file}.partial-${process.pid}`;
  let fd: number | undefined;
  let made = false;
  let events = 0;
  try {
    fd = openSync(temporary, 'wx', EXPORT_FILE_MODE);
    made = true;
    const headHash = isEmbeddedEventStore(log)
      ? (await log.readStored(head - 1n, 1))[0]?.hash || null
      : null;
    const header: ExportHeader = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      workspace,
      exportedAt: new Date().toISOString(),
      source: { adapter: log.adapter, head: head.toString(), headHash },
    };
    const headerLine = JSON.stringify(header);
    writeAll(fd, `${headerLine}\n`);
    let previous = headerHash(headerLine);
    let buffer = '';
    for await (const page of storedRows(log)) {
      for (const row of page) {
        if (row.position > head || !streams.has(row.streamId)) continue;
        const line = {
          position: row.position.toString(),
          streamId: row.streamId,
          revision: row.revision,
          id: row.id,
          type: row.type,
          data: row.data,
          metadata: row.metadata,
        };
        previous = lineHash(previous, line);
        buffer += `${JSON.stringify({ ...line, logHash: row.logHash, hash: previous })}\n`;
        events++;
      }
      if (buffer.length > 1 << 20) {
        writeAll(fd, buffer);
        buffer = '';
      }
      progress?.(events, page.at(-1)!.position, head);
      if (page.at(-1)!.position >= head) break;
    }
    writeAll(fd, `${buffer}${JSON.stringify({ end: true, events, hash: previous })}\n`);
    progress?.(events, head, head);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    if (made) rmSync(temporary, { force: true });
    rmSync(file, { force: true });
    throw error;
  }
  return { events, streams: streams.size };
}

/**
 * write(2) may take only part of what it is given — a disk filling up, a file-size limit — and
 * says how much; the next write then fails with the cause (ENOSPC, EFBIG). Dropping the rest
 * made a cut export that reported success.
 */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
}
