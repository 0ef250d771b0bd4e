/**
 * Tags and devices are named, and a name is unique per user (case and surrounding space ignored)
 * because notes refer to them by name. The read model lags concurrent requests and a tag's own
 * stream knows nothing of the others, so a name changes hands through a claim
 * (commands/tag/name-claim.ts): a create and a rename both claim the name at the claim stream's
 * revision they found it free at, before they write, so of two requests giving one name only
 * one gets it — whichever way they interleave — and the other is refused (409) or, when it only
 * needs a tag or device of that name (a note's names), uses the winner's. This file creates,
 * plans and renames; name-holder.ts finds who holds a name, claims it, and derives the ids below.
 *
 * Ids. A create sent with an Idempotency-Key (create_tag, register_device) creates at an id
 * derived from the key: the same key with another request meets the first on that stream and
 * is refused there (412), and a retry is answered there. Any other new one gets its name's
 * generation id — derived from the name and the claim's revision — so concurrent first uses of
 * one name claim the same holder and meet on one stream, where one creates and the others find
 * it. A name's first generation keeps the id names had before claims existed.
 *
 * Existing data: a name given before claims existed has no claim. Its holder is found through
 * the read model (asked first, always: one that has a name now holds it, claim or not) or at the
 * id derived from the name, where it was created; so such a name stays taken. A keyed create
 * from then is found where it was made (tags.ts, devices.ts).
 *
 * Most. A new one first takes its place among the user's ones (named-places.ts: 409 past
 * NOTES_TAGS_PER_USER or NOTES_DEVICES_PER_USER), at the id it is about to be created at, before
 * its name is claimed; concurrent first uses of one name share that id and so one place.
 */
import { AlreadyExists } from '../../../commands/shared/errors.js';
import { again, type CommandContext, derivedId, type NotesDeps, untilSettled } from './deps.js';
import { claimAt, clash, generationId, joinable, look } from './name-holder.js';
import { takePlaces } from './named-places.js';

/** A tag or device as stored: its stream revision, its name while live, the action's answer. */
export interface Stored<Result> {
  revision: number;
  liveName: string | null;
  answer(): Result;
}

export interface Named<Result> {
  kind: 'tag' | 'device';
  userId: string;
  /** the key two names collide on */
  keyOf(name: string): string;
  /** the read model's answer to "has the user a live one of this name" */
  findByName(name: string): Promise<{ id: string } | null>;
  load(id: string): Promise<Stored<Result>>;
  /** the ids of the live ones the read model lists, the most the user may have, its setting */
  listedIds(): Promise<string[]>;
  most: number;
  setting: string;
}

export interface CreateOptions<Result> {
  /** answer with a live one of that name instead of 409 */
  reuse: boolean;
  /** where a create sent with an Idempotency-Key creates (keyedId) */
  keyedId?: string;
  /** ids whose places the request took already (a note's new ones: named-places.ts) */
  placed?: ReadonlySet<string>;
  /** create it at `id`; AlreadyExists when that stream is taken */
  create(id: string): Promise<Result>;
}

/** The id a create with an Idempotency-Key creates at (names refuse control characters). */
export function keyedId(kind: Named<unknown>['kind'], userId: string, key: string): string {
  return derivedId(kind, userId, '\u0001key', key);
}

/** Create the named one, or (reuse) answer with the live one of that name. */
export function createNamed<Result>(
  deps: NotesDeps,
  context: CommandContext,
  named: Named<Result>,
  name: string,
  options: CreateOptions<Result>,
): Promise<Result> {
  const key = named.keyOf(name);
  return untilSettled(async () => {
    const seen = await look(deps, named, key, name, context.now);
    const { holder } = seen;
    if (holder?.status === 'held') {
      if (!options.reuse) throw clash(named, holder.stored.liveName ?? name);
      return holder.stored.answer();
    }
    let id: string;
    if (holder) {
      // a create in flight of this request (a concurrent retry) or, when any one of the name
      // will do, of the name's generation is joined; a rename in flight is waited for
      const mine = holder.id === options.keyedId;
      if (!mine && !options.reuse) throw clash(named, name);
      if (!mine && !joinable(named, key, seen)) return again;
      id = holder.id;
    } else {
      id = options.keyedId ?? generationId(named, key, seen.revision + 1, seen.firstTaken);
      // its place among the user's ones first (named-places.ts): 409 past the most
      if (!options.placed?.has(id)) {
        await takePlaces(deps, context, named.userId, [{ named, ids: [id] }]);
      }
      const claim = { holderId: id, holderRevision: -1, at: context.now };
      if (!(await claimAt(deps, context, named, key, claim, seen.revision))) return again;
    }
    try {
      return await options.create(id);
    } catch (error) {
      // created meanwhile by another request: look again (it holds the name now)
      if (error instanceof AlreadyExists) return again;
      throw error;
    }
  }, `the ${named.kind} name "${name}"`);
}

/**
 * What createNamed with `reuse` would do now: answer the one that has the name (held), or make
 * one at `id`: a note takes the places of all it makes (named-places.ts) before making any.
 */
export async function planNamed<Result>(
  deps: NotesDeps,
  named: Named<Result>,
  name: string,
  now: number,
): Promise<{ held: Result } | { id: string }> {
  const key = named.keyOf(name);
  const seen = await look(deps, named, key, name, now);
  if (seen.holder?.status === 'held') return { held: seen.holder.stored.answer() };
  if (seen.holder) return { id: seen.holder.id };
  return { id: generationId(named, key, seen.revision + 1, seen.firstTaken) };
}

/** Claim `name` for the one at `id`, whose change follows `revision`; 409 when another has it. */
export function claimName<Result>(
  deps: NotesDeps,
  context: CommandContext,
  named: Named<Result>,
  target: { id: string; revision: number },
  name: string,
): Promise<void> {
  const key = named.keyOf(name);
  return untilSettled(async () => {
    const { holder, revision } = await look(deps, named, key, name, context.now);
    if (holder) {
      if (holder.id === target.id) return; // it has the name (another case) or claimed it already
      throw clash(named, holder.status === 'held' ? (holder.stored.liveName ?? name) : name);
    }
    const claim = { holderId: target.id, holderRevision: target.revision, at: context.now };
    return (await claimAt(deps, context, named, key, claim, revision)) ? undefined : again;
  }, `the ${named.kind} name "${name}"`);
}
