/**
 * list_events: the ordered feed of the workspace's messages — the same messages the webhooks
 * carry — for catching up after an outage. Any member may read it. Unlike the spec's listings it
 * is a feed: `nextCursor` is never null; at the current end it is where to poll from later.
 */
import { z } from 'zod';
import { InvalidArgument } from '../../../../commands/shared/errors.js';
import { WEBHOOK_EVENT_TYPES } from '../../../../commands/webhook/index.js';
import { pageSizeParam, cursorParam } from '../../../http/registry.js';
import type { FeedEventType } from '../../../webhooks/messages/event-types.js';
import { ProductKey, WorkspaceParams } from '../schemas.js';
import { requireProduct } from '../followup/shared.js';
import { workspaceOf } from '../triage/shared.js';
import { defineFeedbackOp, type FeedbackOperation } from '../types.js';
import { Message } from './schemas.js';
import { DECLARED, TAGS, type WebhookHttpDeps } from './shared.js';

/** every message type but the test message, which only its own webhook receives */
const FEED_TYPES = WEBHOOK_EVENT_TYPES.filter((t): t is FeedEventType => t !== 'webhook.test');

const Cursor = z.object({ p: z.string().regex(/^\d+$/) });

export function eventsOperation(deps: WebhookHttpDeps): FeedbackOperation {
  return defineFeedbackOp({
    id: 'list_events',
    method: 'get',
    path: '/v1/workspaces/{slug}/events',
    summary: 'Read the workspace’s messages in order (the event feed)',
    tags: TAGS,
    params: WorkspaceParams,
    query: z.object({
      after: cursorParam('opaque cursor from a previous answer; absent = from the beginning'),
      types: z
        .string()
        .min(1)
        .max(500)
        .optional()
        .meta({ description: `comma-separated message types: ${FEED_TYPES.join(', ')}` }),
      productKey: ProductKey.optional().meta({
        description:
          "only the messages of this product's items and changelog; a product the workspace does not have answers 404, as list_items does",
      }),
      pageSize: pageSizeParam({ max: 200, default: 50 }),
    }),
    response: z.object({
      items: z.array(Message),
      nextCursor: z.string().meta({
        description:
          'never null: pass it as `after` for the next page; at the current end it is where to poll from later',
      }),
    }),
    errors: DECLARED,
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription:
      'Oldest first, each message once: paging while new events arrive neither repeats nor skips one. A page may hold fewer than `pageSize` messages (even none) before the end; keep following it: pass `nextCursor` back as `after` for the next page (it is never null: at the end, it is where to poll from later). An edited cursor answers 400.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { after, types, productKey, pageSize } = ctx.query;
      const scope = { scope: `events:${workspaceId}`, field: 'after' };
      const from = after ? BigInt(deps.cursors.decodeAs(after, Cursor, scope).p) : 0n;
      // an unknown product would answer empty pages forever, read as "nothing happened there"
      if (productKey !== undefined) await requireProduct(deps.readStore, workspaceId, productKey);
      const page = await deps.webhooks.feed({
        workspaceId,
        after: from,
        types: types ? parseTypes(types) : null,
        productKey: productKey ?? null,
        pageSize,
      });
      return {
        body: {
          items: page.messages,
          nextCursor: deps.cursors.encode({ p: page.next.toString() }, scope),
        },
      };
    },
  });
}

function parseTypes(text: string): Set<FeedEventType> {
  const wanted = new Set<FeedEventType>();
  for (const part of text.split(',')) {
    const type = part.trim();
    if (!(FEED_TYPES as readonly string[]).includes(type)) {
      throw new InvalidArgument(
        `types: "${type}" is not a message type (${FEED_TYPES.join(', ')})`,
      );
    }
    wanted.add(type as FeedEventType);
  }
  return wanted;
}
