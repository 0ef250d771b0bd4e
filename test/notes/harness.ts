/**
 * The notes service's write and read side in-process over real embedded stores, with the
 * projection engine running, for action tests: `deps` is what every action takes first, and
 * `run` waits for the projections after a write, as the HTTP layer does (read-your-writes).
 */
import { randomUUID } from 'node:crypto';
import {
  type CommandContext,
  type CommandHandler,
  createCommandHandler,
} from '../../src/write/command-handler.js';
import type { NotesDeps } from '../../src/notes/actions/index.js';
import { createGazetteer, type Places } from '../../src/notes/places.js';
import { notesProjectors } from '../../projections/notes.js';
import { createNotesQueries } from '../../src/notes/queries.js';
import { createProjectionEngine } from '../../src/read/projection-engine.js';
import { openTestStores } from '../support/stores.js';

export async function startNotes(options: { places?: Places; syncRetainPerUser?: number } = {}) {
  const stores = await openTestStores();
  const commandHandler = createCommandHandler(stores.eventStore);
  const places = options.places ?? createGazetteer();
  const deps: NotesDeps = { commandHandler, readStore: stores.readStore, places };
  const queries = createNotesQueries({ readStore: stores.readStore, events: stores.eventStore });
  const engine = createProjectionEngine({
    eventStore: stores.eventStore,
    readStore: stores.readStore,
    projectors: notesProjectors({ syncRetainPerUser: options.syncRetainPerUser }),
    logger: { error: () => {}, info: () => {} },
  });
  await engine.start();
  let clock = 1_700_000_000_000;
  return {
    stores,
    /** what the actions take as their first argument */
    deps,
    queries,
    engine,
    /** a context for `userId` at the next tick of a fake clock */
    ctx(userId: string, extra: Partial<CommandContext> = {}): CommandContext {
      clock += 1000;
      return { actor: userId, now: clock, correlationId: randomUUID(), ...extra };
    },
    /** run a write and wait until the projections show it */
    async run<R extends { position: bigint | null }>(write: Promise<R>): Promise<R> {
      const result = await write;
      if (result.position !== null) await engine.waitFor(result.position);
      return result;
    },
    async stop() {
      await engine.stop();
      await stores.cleanup();
    },
  };
}

export type NotesHarness = Awaited<ReturnType<typeof startNotes>>;

/** Places that need no data file: a fixed answer, and a record of what was asked. */
export function fakePlaces(name: string | null = 'Testville, TT'): Places & { asked: number } {
  const places = {
    asked: 0,
    async placeName() {
      places.asked++;
      return name;
    },
  };
  return places;
}

/**
 * `deps` whose command handler, once, runs `meanwhile` to its end before handling the first
 * command `when` picks: another request runs between two steps of one, deterministically (as
 * test/feedback/actions/harness.ts `pausingBefore`).
 */
export function pausingBefore(
  deps: NotesDeps,
  when: (streamId: string, command: { type: string }) => boolean,
  meanwhile: () => Promise<unknown>,
): NotesDeps {
  const handler = deps.commandHandler;
  let armed = true;
  const pausing: CommandHandler = Object.create(handler);
  pausing.handle = async (streamId, decider, command, context) => {
    if (armed && when(streamId, command as { type: string })) {
      armed = false;
      await meanwhile();
    }
    return handler.handle(streamId, decider, command, context);
  };
  return { ...deps, commandHandler: pausing };
}

/** The first write a request makes, whatever it is. */
export const firstWrite = () => true;

export type Outcome<T> = { ok: T; error?: undefined } | { ok?: undefined; error: Error };

/** How a request ended, without throwing. */
export async function outcome<T>(promise: Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: await promise };
  } catch (error) {
    return { error: error as Error };
  }
}
