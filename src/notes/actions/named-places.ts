/**
 * list_tags and list_devices answer all of a user's tags and devices at once, so their number is
 * bounded (NOTES_TAGS_PER_USER, NOTES_DEVICES_PER_USER). The read model lists one only once its
 * creation is projected, so creations in flight together would each see room: a creation first
 * takes its place in the user's roster (commands/tag/roster.ts), at the roster revision its
 * count followed, and only then is it written. A note's new tags and device take their places
 * in one intent, before any of them is created: a note refused for one creates none.
 */
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import { RevisionMismatch } from '../../../commands/shared/revision.js';
import {
  type NamedRosterState,
  namedRosterDecider,
  namedRosterStreamId,
  recentNamedIntents,
} from '../../../commands/tag/index.js';
import { again, type CommandContext, type NotesDeps, unkeyed, untilSettled } from './deps.js';
import type { Named } from './named.js';

/** New ones of one kind a creation is about to make, at the ids it will make them at. */
export interface Wanted {
  named: Named<unknown>;
  ids: readonly string[];
}

/**
 * Take the places of the `wanted` ones among the user's tags and devices, or refuse (409) when
 * one kind would pass its most. Ones already counted (landed, or a concurrent creation of the
 * same name at the same id on its way) have their place and are not counted twice; when every
 * one has, nothing is appended.
 */
export async function takePlaces(
  deps: NotesDeps,
  context: CommandContext,
  userId: string,
  wanted: readonly Wanted[],
): Promise<void> {
  const stream = namedRosterStreamId(userId);
  await untilSettled(async () => {
    const roster = await deps.commandHandler.load(stream, namedRosterDecider);
    const fresh = { tagIds: [] as string[], deviceIds: [] as string[] };
    for (const { named, ids } of wanted) {
      const counted = await countedOnes(named, roster.state, context.now);
      const more = [...new Set(ids)].filter((id) => !counted.has(id));
      if (more.length > 0 && counted.size + more.length > named.most) {
        refuse(named, counted.size, more.length);
      }
      fresh[named.kind === 'tag' ? 'tagIds' : 'deviceIds'].push(...more);
    }
    if (fresh.tagIds.length + fresh.deviceIds.length === 0) return;
    const intent = { ...fresh, at: context.now, expectedRevision: roster.revision };
    try {
      const command = { type: 'IntendNamedCreation' as const, data: intent };
      await deps.commandHandler.handle(stream, namedRosterDecider, command, unkeyed(context));
    } catch (error) {
      if (error instanceof RevisionMismatch) return again; // another creation came first
      throw error;
    }
  }, 'the tags and devices of the user');
}

/**
 * The ones of a kind a creation counts: the listed ones, and those of the recent intents that
 * are on their way (no stream yet) or landed but not listed yet; a tag deleted since is not.
 */
async function countedOnes(
  named: Named<unknown>,
  roster: NamedRosterState,
  now: number,
): Promise<Set<string>> {
  const ids = new Set(await named.listedIds());
  for (const id of recentNamedIntents(roster, named.kind, now)) {
    if (ids.has(id)) continue;
    const stored = await named.load(id);
    if (stored.revision < 0 || stored.liveName !== null) ids.add(id);
  }
  return ids;
}

function refuse(named: Named<unknown>, has: number, more: number): never {
  const most = `the most one account may have (${named.setting})`;
  const first = named.kind === 'tag' ? '; delete one first' : '';
  throw new FailedPrecondition(
    has >= named.most
      ? `you have ${has} ${named.kind}s, ${most}${first}`
      : `you have ${has} ${named.kind}s and ${more} new ones would pass ${most}${first}`,
  );
}
