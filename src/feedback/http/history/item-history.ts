/**
 * get_item_history and get_item_as_of (issue 15). Same envelope, live membership and 404 rules
 * as get_item: a non-member and an unknown workspace get the same 404, an item outside the
 * product in the path is not there. Both read the log itself (through the item's timeline), so
 * they answer for every revision the log holds, old event shapes upcast.
 */
import { z } from 'zod';
import { productKeyOf } from '../../../../commands/product/index.js';
import { InvalidArgument, NotFound } from '../../../../commands/shared/errors.js';
import { getItem } from '../../../../projections/items/queries.js';
import type { RecordedEvent } from '../../../eventstore/types.js';
import { itemChanges } from '../../activity/item-history.js';
import type { ItemTimelines, Visit } from '../../activity/timeline.js';
import { cursorParam, howToPage, pageSizeParam } from '../../../http/registry.js';
import { Count, Item, ItemParams, Participant, Reply, Timestamp } from '../schemas.js';
import { itemNotFound } from '../../actions/index.js';
import { workspaceOf } from '../triage/shared.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';
import { secondsHint } from './moments.js';
import { ChangePage } from './schemas.js';

export interface HistoryHttpDeps extends FeedbackHttpDeps {
  timelines: ItemTimelines;
}

const HistoryCursor = z.object({ from: z.number().int().min(0) });

/**
 * Why a moment before the item's first revision finds nothing, also when an import gave the item
 * an earlier createdAt: revisions are in the order and at the times they were recorded, so the
 * item's past before its import is not in its history.
 */
function notYet(itemKey: string, at: number, captured: RecordedEvent): string {
  const recorded = captured.metadata.occurredAt;
  const given = (captured.data as { createdAt?: number }).createdAt;
  const imported =
    given !== undefined && given < recorded
      ? `; its createdAt, ${given}, came with an import, and history and as-of start when it was recorded`
      : '';
  return `${itemKey} did not exist yet at ${at}${secondsHint(at)}: it was recorded at ${recorded}${imported}`;
}

export function itemHistoryOperations(deps: HistoryHttpDeps): FeedbackOperation[] {
  async function eventsOf(workspaceId: string, productKey: string, itemKey: string) {
    const events =
      productKeyOf(itemKey) === productKey ? await deps.timelines.events(workspaceId, itemKey) : [];
    if (events.length === 0) throw itemNotFound(productKey, itemKey);
    return events;
  }

  const history = defineFeedbackOp({
    id: 'get_item_history',
    method: 'get',
    path: '/v1/workspaces/{slug}/products/{key}/items/{itemKey}/history',
    summary: 'Every change of an item, oldest first: who, through what, when, and what changed',
    tags: ['History'],
    params: ItemParams,
    query: z.object({ cursor: cursorParam(), pageSize: pageSizeParam({ max: 200, default: 50 }) }),
    response: ChangePage,
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription:
      `${howToPage()} ` +
      'One Change per event of the item, in order. Changes that reached the item from elsewhere are ' +
      'recorded on it and listed too: the people a merge folded in, a +1 given on an item merged ' +
      'into it. An item merged into another still answers, like get_item.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { key, itemKey } = ctx.params;
      const scope = `history:${workspaceId}/${itemKey}`;
      const from = ctx.query.cursor
        ? deps.cursors.decodeAs(ctx.query.cursor, HistoryCursor, { scope }).from
        : 0;
      const events = await eventsOf(workspaceId, key, itemKey);
      const to = Math.min(from + ctx.query.pageSize, events.length);
      const revisions = Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
      const items = await itemChanges(deps, workspaceId, itemKey, revisions);
      const nextCursor = to < events.length ? deps.cursors.encode({ from: to }, { scope }) : null;
      return { body: { items, nextCursor } };
    },
  });

  const asOf = defineFeedbackOp({
    id: 'get_item_as_of',
    method: 'get',
    path: '/v1/workspaces/{slug}/products/{key}/items/{itemKey}/as-of',
    summary: 'An item exactly as get_item answered at a revision or a moment',
    tags: ['History'],
    params: ItemParams,
    query: z.object({
      revision: z
        .number()
        .int()
        .min(0)
        .max(9007199254740991)
        .optional()
        .meta({ description: "the item's revision (0 = as captured)" }),
      at: Timestamp.optional().meta({
        description: 'a moment (ms since the epoch): the last revision at or before it',
      }),
    }),
    response: z
      .object({
        revision: Count.describe('the revision answered'),
        at: Timestamp.describe('when that revision was recorded'),
        item: Item,
        replies: z.array(Reply),
        participants: z.array(Participant),
      })
      .strict(),
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription:
      'Give exactly one of `revision` and `at`. The answer has the fields of get_item, as they ' +
      'stood then (people with the names they had then). A moment between two revisions answers ' +
      'the earlier, and one after the last revision the last; a moment before the item existed, ' +
      'or a `revision` past its last, answers 404. Moments are ' +
      'those the revisions were recorded at: an imported item whose `createdAt` is earlier ' +
      'than its recording has no revision at that `createdAt`.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { key, itemKey } = ctx.params;
      const { revision, at } = ctx.query;
      if ((revision === undefined) === (at === undefined)) {
        throw new InvalidArgument('give exactly one of revision and at');
      }
      const events = await eventsOf(workspaceId, key, itemKey);
      let target = revision ?? -1;
      if (at !== undefined) {
        for (const e of events) if (e.metadata.occurredAt <= at) target = e.revision;
        if (target < 0) throw new NotFound(notYet(itemKey, at, events[0]!));
      } else if (target >= events.length) {
        throw new NotFound(
          `${itemKey} has no revision ${target}; its last is ${events.length - 1}`,
        );
      }
      let answer: Awaited<ReturnType<typeof getItem>> = null;
      const visit = async (_revision: number, store: Parameters<Visit>[1]) => {
        answer = await getItem(store, { workspaceId, productKey: key, itemKey });
      };
      // at a moment, its people as they were named at that moment, not at the revision
      const options = at === undefined ? {} : { peopleUntil: at };
      await deps.timelines.replay(workspaceId, itemKey, [target], visit, options);
      const found = answer as Awaited<ReturnType<typeof getItem>>;
      if (!found) throw new NotFound('item not found');
      return {
        body: {
          revision: target,
          at: events[target]!.metadata.occurredAt,
          item: found.item,
          replies: found.replies,
          participants: found.participants,
        },
      };
    },
  });

  return [history, asOf];
}
