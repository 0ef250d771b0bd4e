/**
 * A real write side for action tests: the embedded event store in a temp dir, the command
 * handler, and — where an action needs lookups — the projection engine over an embedded read
 * store. `crashingOn` makes one chosen append fail, as a crash between two steps would;
 * `pausingBefore` runs another request between two steps of one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { feedbackProjectors } from '../../../projections/feedback.js';
import { type CommandContext, createCommandHandler } from '../../../src/write/command-handler.js';
import { openEmbeddedEventStore } from '../../../src/eventstore/embedded/index.js';
import type { EventStore } from '../../../src/eventstore/types.js';
import { createProjectionEngine } from '../../../src/read/projection-engine.js';
import { openEmbeddedReadStore } from '../../../src/readstore/embedded/index.js';
import type { ReadStore } from '../../../src/readstore/types.js';

export interface World {
  events: EventStore;
  readStore: ReadStore;
  /** wait until every projector has applied the log up to `position` */
  caughtUp(position?: bigint | null): Promise<void>;
  /** a fresh handler (as after a restart) over a store whose next append to `streamId` fails */
  crashingOn(streamId: string): ReturnType<typeof createCommandHandler>;
  handler: ReturnType<typeof createCommandHandler>;
}

export class SimulatedCrash extends Error {
  override readonly name = 'SimulatedCrash';
}

export async function withWorld(run: (world: World) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actions-'));
  const file = path.join(dir, 'data.sqlite');
  const events = await openEmbeddedEventStore({ path: file });
  const readStore = await openEmbeddedReadStore({ path: path.join(dir, 'read.sqlite') });
  const engine = createProjectionEngine({
    eventStore: events,
    readStore,
    projectors: feedbackProjectors(),
  });
  await engine.start();
  try {
    await run({
      events,
      readStore,
      handler: createCommandHandler(events),
      async caughtUp(position) {
        await engine.waitFor(position ?? (await events.headPosition()));
      },
      crashingOn: (streamId) => crashingHandler(events, streamId),
    });
  } finally {
    await engine.stop();
    await readStore.close();
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A fresh handler (as after a restart) over `events`, whose next append to `streamId` fails. */
export function crashingHandler(events: EventStore, streamId: string) {
  let armed = true;
  const crashing: EventStore = Object.create(events);
  crashing.appendToStream = async (id, batch, options) => {
    if (armed && id === streamId) {
      armed = false;
      throw new SimulatedCrash(`crash before appending to ${id}`);
    }
    return events.appendToStream(id, batch, options);
  };
  return createCommandHandler(crashing);
}

let clock = 1_700_000_000_000;
export function ctx(extra: Partial<CommandContext> = {}): CommandContext {
  clock += 1_000;
  return { actor: 'u1', now: clock, ...extra };
}

export async function countEvents(events: EventStore, type: string): Promise<number> {
  return (await events.readAll({ filter: { eventTypes: [type] } })).length;
}

type Handler = ReturnType<typeof createCommandHandler>;

/**
 * `handler`, except that its first `commandType` on `streamId` (or a stream it matches) first
 * awaits `meanwhile`: another request runs (or runs up to a point) between two steps of this one.
 */
export function pausingBefore(
  handler: Handler,
  streamId: string | RegExp,
  commandType: string,
  meanwhile: () => Promise<unknown>,
): Handler {
  let armed = true;
  const pausing: Handler = Object.create(handler);
  pausing.handle = async (id, decider, command, context) => {
    const onStream = typeof streamId === 'string' ? id === streamId : streamId.test(id);
    if (armed && onStream && (command as { type: string }).type === commandType) {
      armed = false;
      await meanwhile();
    }
    return handler.handle(id, decider, command, context);
  };
  return pausing;
}
