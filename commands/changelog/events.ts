import { z } from 'zod';
import type { DomainEvent } from '../shared/decider.js';

/**
 * A public changelog entry announcing a shipped item (draft_changelog_entry with publish: true).
 * One entry per shipped item, stream `changelog-<workspaceId>.<ITEMKEY>`; publishing again with
 * other text revises it, with the same text changes nothing. Times are `metadata.occurredAt`.
 */
export const ChangelogEntryFields = z.object({
  title: z.string().min(1).max(500),
  body: z.string().max(50_000),
  /** the item and the items merged into it */
  itemIds: z.array(z.string()).min(1),
  requestedByNames: z.array(z.string()),
  requestedByCount: z.number().int().min(0),
  /**
   * Who `requestedByCount` counts, in order, with the items (the entry's item, the merged ones)
   * on which those `requestedByNames` names (in the same order) filed or replied: an unmerge
   * takes back the people and names that came only through the items it gives back. Not public.
   * Absent in entries published before it was kept.
   */
  requestedBy: z
    .array(z.object({ personId: z.string().min(1), namedVia: z.array(z.string()).optional() }))
    .optional(),
});
export const ChangelogEntryPublishedData = ChangelogEntryFields.extend({
  entryId: z.string().min(1),
  workspaceId: z.string().min(1),
  productKey: z.string(),
  itemKey: z.string(),
});
/** Only what the new publication changed. */
export const ChangelogEntryRevisedData = ChangelogEntryFields.partial();

export type ChangelogEntryFields = z.infer<typeof ChangelogEntryFields>;
export type Requester = NonNullable<ChangelogEntryFields['requestedBy']>[number];
export type ChangelogEntryPublished = DomainEvent<
  'ChangelogEntryPublished',
  z.infer<typeof ChangelogEntryPublishedData>
>;
export type ChangelogEntryRevised = DomainEvent<
  'ChangelogEntryRevised',
  z.infer<typeof ChangelogEntryRevisedData>
>;
export type ChangelogEvent = ChangelogEntryPublished | ChangelogEntryRevised;

export const changelogEventSchemas = {
  ChangelogEntryPublished: ChangelogEntryPublishedData,
  ChangelogEntryRevised: ChangelogEntryRevisedData,
} as const;
