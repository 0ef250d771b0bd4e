/** Schemas of the history operations (issue 15): the actor and the Change record. */
import { z } from 'zod';
import { nextCursorOf } from '../../../http/registry.js';
import { ActingFor, ItemKey, Timestamp } from '../schemas.js';

export const ActorViewSchema = z
  .object({
    kind: z.enum(['maker', 'person', 'agent', 'system']),
    id: z
      .string()
      .nullable()
      .describe(
        'user, person or integration id; for an OAuth client, the user it acted for; null for the system',
      ),
    name: z.string().nullable().describe('display name, or the OAuth client / connection name'),
    actingFor: ActingFor.optional(),
  })
  .strict()
  .meta({ id: 'ActivityActor' });

export const ChangeSchema = z
  .object({
    revision: z.number().int().min(0).describe("the event's revision in its stream"),
    position: z
      .string()
      .regex(/^\d+$/)
      .describe("the event's position in the whole log (a decimal string; it may exceed 2^53)"),
    type: z.string().describe('the event type, e.g. `ItemStatusChanged`'),
    occurredAt: Timestamp,
    itemKey: ItemKey.nullable().describe('null for workspace, product and people events'),
    actor: ActorViewSchema,
    via: z.string().optional().describe('attribution label; absent when none applies'),
    credentialId: z
      .string()
      .optional()
      .describe(
        'which credential made the change, where `via` names it only by a name others may share: the personal API token’s `id` (list_api_tokens), the OAuth client’s `client_id` (`clientId` in list_connected_apps), the integration credential’s `id` (list_integrations); absent for the first-party ID token, a board visitor, the system, and changes recorded before it was kept',
      ),
    correlationId: z
      .string()
      .describe(
        "the server's id of the request that made the change (its `x-correlation-id` answer): the events of one request, and only those, share it",
      ),
    clientCorrelationId: z
      .string()
      .optional()
      .describe(
        'the `x-correlation-id` the client sent with that request, as sent (when well-formed): a claim of the client, which another caller may repeat, so never a link between changes',
      ),
    finishedAfterInterruption: z
      .literal(true)
      .optional()
      .describe(
        'present (true) on a step of a request that was interrupted (a crash between the steps of a merge or unmerge) and finished after it — by the restart, or by a later request that needed it finished — not by the request itself; the step still names that request: its actor, via and correlationId',
      ),
    summary: z.string().describe('one readable sentence'),
    changes: z
      .record(z.string(), z.object({ from: z.unknown(), to: z.unknown() }).strict())
      .describe(
        'each changed field with its value before and after (item events: the Item fields except `updatedAt` and `rank`, plus `mergedInto` and `participants`, the number of people)',
      ),
  })
  .strict()
  .meta({ id: 'Change' });

export const ChangePage = z
  .object({
    items: z.array(ChangeSchema),
    nextCursor: nextCursorOf(),
  })
  .strict();
