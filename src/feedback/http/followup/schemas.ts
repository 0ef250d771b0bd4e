/**
 * Schemas of the people, close-the-loop and synthesis operations (spec "Person record",
 * "Follow-up entry", "Close the loop", "Synthesis", "Read"). Component names are process-wide,
 * so they are declared once, here.
 */
import { z } from 'zod';
import { Count, FollowUpEntry, Item, ItemKey, ItemStatus, PersonSummary } from '../schemas.js';

export const Score = z
  .number()
  .min(0)
  .max(1)
  .describe('semantic closeness in [0, 1], higher is closer (cosine similarity floored at 0)');

export const PersonItem = z
  .object({
    id: z.string(),
    productId: z.string(),
    title: z.string(),
    status: ItemStatus,
    role: z.enum(['submitted', 'plus-one', 'replied']),
    createdAt: z.number().nullable(),
  })
  .strict()
  .meta({ id: 'PersonItem' });

export const PersonRecord = PersonSummary.extend({
  awaitingReply: z
    .boolean()
    .describe(
      'true when the person spoke last on an open thread: on some item with status new, planned or in-progress (not merged) that they are on, the latest speech — the submission or a reply — is theirs. Only replies by a maker or an agent answer; a +1 is not speech; a later reply by another person makes that person the one waiting. A question left unanswered on an open item that was then merged away waits on the survivor until a maker or an agent replies there. Derived on each request, never stored.',
    ),
  items: z.array(PersonItem),
  openItemCount: Count.describe('items of theirs with status new, planned or in-progress'),
  productKeys: z.array(z.string()),
})
  .strict()
  .meta({ id: 'PersonRecord' });

export const PersonSearchHit = z
  .object({ person: PersonSummary, score: Score })
  .strict()
  .meta({ id: 'PersonSearchHit' });
export const ItemSearchHit = z
  .object({ item: Item, score: Score })
  .strict()
  .meta({ id: 'ItemSearchHit' });

export const Followup = z
  .object({
    shippedUnnotified: z
      .array(FollowUpEntry)
      .describe(
        'shipped items nobody was told about since they last shipped (notifiedAt null or set before that status change, in the order the changes were recorded), or since a merge brought people nobody told it shipped; longest waiting first',
      ),
    stalePromises: z
      .array(FollowUpEntry)
      .describe(
        'planned or in-progress items whose status has not changed for more than STALE_PROMISE_DAYS (default 30) days; stalest first',
      ),
    repliesOwed: z
      .array(FollowUpEntry)
      .describe(
        'open items (new, planned, in-progress) on which a person waits: their last speaker is a person, not a maker or agent, or a merged thread left someone unanswered — exactly the threads on which get_person says awaitingReply; longest waiting first',
      ),
  })
  .strict()
  .meta({ id: 'Followup' });

export const NotifyRequest = z
  .object({
    confirm: z
      .literal(true)
      .describe('must be exactly true; anything else is refused with 400 and records nothing'),
    message: z.string().max(2000).optional(),
  })
  .strict()
  .meta({ id: 'NotifyRequest' });

export const NotifyRecipient = z
  .object({
    personId: z.string(),
    displayName: z.string().nullable(),
    delivered: z
      .boolean()
      .describe('eligible to hear (has a verified e-mail address); no mail is sent'),
    reason: z
      .string()
      .optional()
      .describe('why skipped: anonymous, unverified, no-email, already-notified, unknown-person'),
  })
  .strict()
  .meta({ id: 'NotifyRecipient' });

export const NotifyResult = z
  .object({ notified: Count, skipped: Count, recipients: z.array(NotifyRecipient) })
  .strict()
  .meta({ id: 'NotifyResult' });

export const ChangelogRequest = z
  .object({
    title: z.string().min(1).max(500).optional(),
    body: z.string().max(50_000).optional(),
    publish: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'ChangelogRequest' });

export const ChangelogDraft = z
  .object({
    title: z.string(),
    body: z.string(),
    itemIds: z.array(ItemKey),
    requestedByNames: z.array(z.string()),
    requestedByCount: Count,
    publishedId: z
      .string()
      .nullable()
      .describe('id of the public changelog entry when publish was true; null otherwise'),
  })
  .strict()
  .meta({ id: 'ChangelogDraft' });

export const TopItem = z
  .object({ id: ItemKey, title: z.string(), status: ItemStatus, plusOneCount: Count })
  .strict()
  .meta({ id: 'TopItem' });

export const FeedbackSummary = z
  .object({
    count: Count,
    byStatus: z.record(z.string(), Count),
    byTag: z.record(z.string(), Count),
    topItems: z.array(TopItem),
    items: z.array(Item),
  })
  .strict()
  .meta({ id: 'FeedbackSummary' });
