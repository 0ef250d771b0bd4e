/**
 * list_audit_events (issue 15): the workspace's audit trail, newest first, for admins. Filters
 * combine (all must hold). A member without the admin role gets 403, a non-member the 404 of an
 * unknown workspace (authorize.ts).
 */
import { z } from 'zod';
import { InvalidArgument, NotFound } from '../../../../commands/shared/errors.js';
import {
  AUDITED_EVENT_TYPES,
  isActorOf,
  isCredentialOf,
  listAuditEvents,
  mayBeOfProduct,
} from '../../../../projections/audit/index.js';
import { auditChanges } from '../../activity/audit.js';
import type { EventStore } from '../../../eventstore/types.js';
import { cursorParam, howToPage, pageSizeParam } from '../../../http/registry.js';
import { ProductKey, Timestamp, WorkspaceParams } from '../schemas.js';
import { requireProduct } from '../followup/shared.js';
import { workspaceOf } from '../triage/shared.js';
import { defineFeedbackOp, type FeedbackOperation } from '../types.js';
import type { HistoryHttpDeps } from './item-history.js';
import { looksLikeSeconds, secondsHint } from './moments.js';
import { ChangePage } from './schemas.js';

const AuditCursor = z.object({ before: z.string().regex(/^[0-9a-f]{32}$/) });

export function auditOperation(
  deps: HistoryHttpDeps & { eventStore: EventStore },
): FeedbackOperation {
  return defineFeedbackOp({
    id: 'list_audit_events',
    method: 'get',
    path: '/v1/workspaces/{slug}/audit',
    summary: "The workspace's audit trail: every change, newest first",
    tags: ['History'],
    params: WorkspaceParams,
    query: z.object({
      actorId: z.string().min(1).max(200).optional().meta({
        description:
          'only changes by this user, person or integration id (of an OAuth client: the user it acted for); one the workspace has never known answers 404',
      }),
      via: z.string().min(1).max(300).optional().meta({
        description: 'only changes made through this attribution label, e.g. `pat:laptop`',
      }),
      credentialId: z.string().min(1).max(200).optional().meta({
        description:
          'only changes made through this credential (`Change.credentialId`: a personal API token’s id, an OAuth client’s `client_id`, an integration credential’s id), where `via` would also match others of the same name; one no change of the workspace came through answers 404',
      }),
      type: z.enum(AUDITED_EVENT_TYPES).optional().meta({
        description:
          'only events of this type (the names of `Change.type`, e.g. `ItemStatusChanged`; not the webhook names such as `item.status_changed`)',
      }),
      productKey: ProductKey.optional().meta({
        description:
          "only the product's own events, its items' events and the person events its submissions and +1s recorded (the person a submission created); a product the workspace does not have answers 404, as list_items does",
      }),
      from: Timestamp.optional().meta({ description: 'only changes at or after this moment (ms)' }),
      to: Timestamp.optional().meta({
        description: 'only changes at or before this moment (ms); not before `from`, nor 0 (400)',
      }),
      cursor: cursorParam(),
      pageSize: pageSizeParam({ max: 200, default: 50 }),
    }),
    response: ChangePage,
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { admin: true },
    extraDescription:
      `${howToPage('filters')} ` +
      "Events of the workspace, its products, items, people and changelog entries (not the product's item-number bookkeeping), and of its webhooks and integration credentials (never their secrets or hashes; they belong to no product, so `productKey` leaves them out, and a `type` of theirs or of the workspace's own with `productKey` answers 400). Every filter given must hold. The cursor is opaque and stable while new events arrive; it belongs to the filters it was issued with: sent with other filters, or edited, it answers 400.",
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { cursor, pageSize, ...filters } = ctx.query;
      // swapped bounds match nothing: an empty page would read as "nothing happened then"
      if (filters.from !== undefined && filters.to !== undefined && filters.from > filters.to) {
        throw new InvalidArgument(
          `from (${filters.from}) is after to (${filters.to}): no moment is in that range`,
        );
      }
      // a bound in seconds lies in January 1970: `to` would match nothing and `from` everything
      for (const bound of ['from', 'to'] as const) {
        const value = filters[bound];
        if (value !== undefined && looksLikeSeconds(value)) {
          throw new InvalidArgument(`${bound} is ${value}${secondsHint(value)}`);
        }
      }
      // 0 is "no bound" in many clients, but as `to` it is the epoch: nothing is that old, and
      // the empty page would read as "nothing happened" (`from=0` is the whole trail: allowed)
      if (filters.to === 0) {
        throw new InvalidArgument(
          'to is 0, the first moment of 1970: no change is that old; leave `to` out to read up to now',
        );
      }
      // the workspace's own events are in no product's trail: the pair can match nothing, and
      // `type=WebhookCreated&productKey=APP` would read as "no webhook was made for APP"
      if (filters.type !== undefined && filters.productKey !== undefined) {
        if (!mayBeOfProduct(filters.type)) {
          throw new InvalidArgument(
            `${filters.type} events belong to the workspace, not to a product: productKey leaves them out`,
          );
        }
      }
      // a filter naming nothing would answer an empty page, read as "nothing happened there":
      // answered as list_items answers an unknown product (and get_person an unknown person)
      if (filters.productKey !== undefined) {
        await requireProduct(deps.readStore, workspaceId, filters.productKey);
      }
      if (filters.actorId !== undefined) {
        if (!(await isActorOf(deps.readStore, workspaceId, filters.actorId))) {
          throw new NotFound('actor not found');
        }
      }
      if (filters.credentialId !== undefined) {
        if (!(await isCredentialOf(deps.readStore, workspaceId, filters.credentialId))) {
          throw new NotFound('no change of this workspace came through that credential');
        }
      }
      // a cursor belongs to the filters it was issued with: sent with others it would walk
      // another list from the middle and silently skip its newer events (as list_items says)
      const { actorId, via, credentialId, type, productKey, from, to } = filters;
      const named = [actorId, via, type, productKey, from, to];
      // (credentialId last, and only when given: the cursors issued before it was a filter hold)
      if (credentialId !== undefined) named.push(credentialId);
      const scope = `audit:${workspaceId}:${JSON.stringify(named)}`;
      const before = cursor ? deps.cursors.decodeAs(cursor, AuditCursor, { scope }).before : null;
      const page = await listAuditEvents(deps.readStore, {
        workspaceId,
        ...filters,
        before,
        limit: pageSize,
      });
      const items = await auditChanges(deps, workspaceId, page.events);
      const nextCursor = page.nextBefore
        ? deps.cursors.encode({ before: page.nextBefore }, { scope })
        : null;
      return { body: { items, nextCursor } };
    },
  });
}
