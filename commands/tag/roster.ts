/**
 * The roster of one notes user's tags and devices (stream `noteroster-<userId>`): their
 * creations are serialised here, so NOTES_TAGS_PER_USER and NOTES_DEVICES_PER_USER hold under
 * concurrent requests, as the webhook roster (commands/webhook/roster.ts) does for a workspace's
 * webhooks. A creation appends its intent — the ids it is about to create, a note's new tags and
 * device in one event — at the roster revision it read before counting; only then are their
 * streams created. A later creation reads the roster after the earlier intent, so it counts those
 * ones: landed (their streams) or still on their way (the intent, while the stream does not exist
 * and the intent is younger than the lease). A create of a tag or device the user already has
 * appends nothing here.
 *
 * Only recent intents are kept in the state: an older one has landed (the read model lists it)
 * or was abandoned. Lives in the tag folder beside the name claims; devices use it the same way.
 */
import { z } from 'zod';
import type { Decider } from '../shared/decider.js';
import { claimLeaseMs } from '../shared/lease.js';
import { checkRevision } from '../shared/revision.js';

export const namedIntentSchema = z.object({
  /** ids of the tags and devices about to be created */
  tagIds: z.array(z.string().min(1)),
  deviceIds: z.array(z.string().min(1)),
  /** when intended (the command's time), for the lease */
  at: z.number(),
});
export type NamedIntent = z.infer<typeof namedIntentSchema>;

export const namedRosterEventSchemas = { NamedCreationIntended: namedIntentSchema } as const;
export type NamedRosterEvent = { type: 'NamedCreationIntended'; data: NamedIntent };

export type NamedKind = 'tag' | 'device';

export type NamedRosterState = {
  revision: number;
  /** per kind, id -> when its creation was intended, for the intents younger than the lease */
  recent: Readonly<Record<NamedKind, Readonly<Record<string, number>>>>;
};

/** `expectedRevision`: the roster revision the counts were made after. */
export type IntendNamedCreation = {
  type: 'IntendNamedCreation';
  data: NamedIntent & { expectedRevision: number };
};

function keepRecent(recent: Readonly<Record<string, number>>, at: number, ids: string[]) {
  const kept: Record<string, number> = {};
  for (const [id, when] of Object.entries(recent)) if (at - when < claimLeaseMs) kept[id] = when;
  for (const id of ids) kept[id] = at;
  return kept;
}

export const namedRosterDecider: Decider<NamedRosterState, IntendNamedCreation, NamedRosterEvent> =
  {
    initialState: () => ({ revision: -1, recent: { tag: {}, device: {} } }),
    evolve(state, event) {
      const { tagIds, deviceIds, at } = event.data;
      const tag = keepRecent(state.recent.tag, at, tagIds);
      const device = keepRecent(state.recent.device, at, deviceIds);
      return { revision: state.revision + 1, recent: { tag, device } };
    },
    decide(command, state) {
      const { expectedRevision, ...intent } = command.data;
      checkRevision(expectedRevision, state.revision);
      return [{ type: 'NamedCreationIntended', data: intent }];
    },
  };

/** The ids of `kind` whose creation was intended less than a lease before `now`. */
export function recentNamedIntents(
  state: NamedRosterState,
  kind: NamedKind,
  now: number,
): string[] {
  return Object.entries(state.recent[kind])
    .filter(([, at]) => now - at < claimLeaseMs)
    .map(([id]) => id);
}

export function namedRosterStreamId(userId: string): string {
  return `noteroster-${userId}`;
}
