/**
 * The tag tree of one user (stream `notetagtree-<userId>.tree`): the changes that other tags'
 * parent rules depend on — a move under a parent, a create under a parent, a delete — are
 * serialised here. Each appends its intent at the tree revision it read before it looked the
 * parents up; only then is the tag's own event appended, after exactly the tag revision the
 * intent names. A later change reads the tree after the earlier intent, so it sees that
 * change: landed (in the tag's stream) or still on its way (the intent, while the tag's stream
 * is at the intent's revision and the intent is younger than the claim lease).
 *
 * Only recent intents are kept in the state: an older one is landed, overtaken or abandoned,
 * and the tag streams say all there is to know.
 */
import { z } from 'zod';
import type { Decider } from '../shared/decider.js';
import { checkRevision } from '../shared/revision.js';
import { claimLeaseMs } from '../shared/lease.js';

export const treeIntentSchema = z.object({
  /** the tag moved or deleted; null for a tag created under a parent (nothing can reach it yet) */
  tagId: z.string().nullable(),
  /** the tag's stream revision its event will follow (-1 for a create) */
  tagRevision: z.number().int(),
  /** when intended (the command's time) */
  at: z.number(),
  /** the parent after the change */
  parentId: z.string().nullable(),
  deleted: z.boolean(),
});
export type TreeIntent = z.infer<typeof treeIntentSchema>;

export const tagTreeEventSchemas = { NoteTagTreeChangeIntended: treeIntentSchema } as const;
export type TagTreeEvent = { type: 'NoteTagTreeChangeIntended'; data: TreeIntent };

export type TagTreeState = {
  revision: number;
  /** the latest recent intent per tag */
  intents: Readonly<Record<string, TreeIntent>>;
};

/** `expectedRevision`: the tree revision the action's lookups were made after. */
export type IntendTreeChange = {
  type: 'IntendTreeChange';
  data: TreeIntent & { expectedRevision: number };
};

export const tagTreeDecider: Decider<TagTreeState, IntendTreeChange, TagTreeEvent> = {
  initialState: () => ({ revision: -1, intents: {} }),
  evolve(state, event) {
    const intent = event.data;
    const intents: Record<string, TreeIntent> = {};
    for (const [tagId, kept] of Object.entries(state.intents)) {
      if (intent.at - kept.at < claimLeaseMs) intents[tagId] = kept;
    }
    if (intent.tagId !== null) intents[intent.tagId] = { ...intent };
    return { revision: state.revision + 1, intents };
  },
  decide(command, state) {
    const { expectedRevision, ...intent } = command.data;
    checkRevision(expectedRevision, state.revision);
    return [{ type: 'NoteTagTreeChangeIntended', data: intent }];
  },
};

/** The intent of `tagId` still on its way, given the tag's stream revision now. */
export function pendingIntent(
  state: TagTreeState,
  tagId: string,
  tagRevision: number,
  now: number,
): TreeIntent | null {
  const intent = state.intents[tagId];
  if (!intent || intent.tagRevision !== tagRevision || now - intent.at >= claimLeaseMs) return null;
  return intent;
}

export const tagTreeStreamPrefix = 'notetagtree-';

export function tagTreeStreamId(userId: string): string {
  return `${tagTreeStreamPrefix}${userId}.tree`;
}
