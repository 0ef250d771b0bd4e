/**
 * Child process for the crash-safety test: appends to the embedded store from many concurrent
 * writers until killed, printing one JSON line per acknowledged append. A line is written only
 * after the append's promise resolved, i.e. after its transaction committed durably.
 *
 * The projection engine runs in the same process, so a kill can also land between a projector's
 * writes and its checkpoint flush.
 *
 * Usage: node --import tsx test/support/crash-writer.ts <db-path> [writers=50]
 * Writers below half the count own a stream each; the rest share five streams with exact
 * expected revisions, so conflicts and retries happen all the time.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import { createProjectionEngine } from '../../src/read/projection-engine.js';
import { openEmbeddedReadStore } from '../../src/readstore/embedded/index.js';
import { crashTallyProjector } from './crash-projector.js';
import {
  type EventStore,
  type NewEvent,
  WrongExpectedRevisionError,
} from '../../src/eventstore/types.js';

export interface CrashAck {
  /** stream */
  s: string;
  /** revision of the last event appended */
  r: number;
  /** global position of the last event appended, as a decimal string */
  p: string;
  /** event ids in revision order */
  ids: string[];
}

export interface CrashEventData {
  writer: number;
  payload: string;
  /** sha256 of payload: a torn or mixed-up row fails it */
  sum: string;
}

export const checksum = (payload: string) => createHash('sha256').update(payload).digest('hex');

function newEvents(writer: number): NewEvent[] {
  const count = 1 + Math.floor(Math.random() * 3);
  return Array.from({ length: count }, () => {
    const payload = randomBytes(20 + Math.floor(Math.random() * 300)).toString('base64');
    const data: CrashEventData = { writer, payload, sum: checksum(payload) };
    return {
      id: randomUUID(),
      type: 'CrashTestAppended',
      data,
      metadata: {
        actor: `writer-${writer}`,
        occurredAt: Date.now(),
        correlationId: randomUUID(),
        causationId: null,
      },
    };
  });
}

async function lastRevision(store: EventStore, stream: string): Promise<number | 'no_stream'> {
  const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
  return last ? last.revision : 'no_stream';
}

async function runWriter(store: EventStore, writer: number, writers: number): Promise<never> {
  const shared = writer >= writers / 2;
  const stream = shared ? `crash-shared-${writer % 5}` : `crash-own-${writer}`;
  let expected = await lastRevision(store, stream);
  for (;;) {
    const events = newEvents(writer);
    try {
      const result = await store.appendToStream(stream, events, { expectedRevision: expected });
      const ack: CrashAck = {
        s: stream,
        r: result.nextExpectedRevision,
        p: String(result.position),
        ids: events.map((e) => e.id!),
      };
      process.stdout.write(`${JSON.stringify(ack)}\n`);
      expected = result.nextExpectedRevision;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      expected = error.actual;
    }
  }
}

async function main(): Promise<void> {
  const [path, writersArg] = process.argv.slice(2);
  if (!path) throw new Error('usage: crash-writer.ts <db-path> [writers]');
  const writers = Number(writersArg ?? 50);
  const store = await openEmbeddedEventStore({ path });
  // Projections run beside the writers and flush often, so the kill also lands mid-projection.
  const engine = createProjectionEngine({
    eventStore: store,
    readStore: await openEmbeddedReadStore({ path }),
    projectors: [crashTallyProjector()],
    flushEvery: 25,
    logger: { info() {}, error: (m) => process.stderr.write(`${m}\n`) },
  });
  await engine.start();
  process.stderr.write('ready\n');
  await Promise.all(Array.from({ length: writers }, (_, w) => runWriter(store, w, writers)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`crash-writer failed: ${(error as Error).stack}\n`);
    process.exit(1);
  });
}
