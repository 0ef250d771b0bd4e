import { z } from 'zod';
import type { DomainEvent } from '../shared/decider.js';

/**
 * Item events. Times are not repeated in the data: every event's `metadata.occurredAt` is when
 * it happened (createdAt, statusChangedAt, notifiedAt, a reply's createdAt). Only ItemCaptured
 * may carry an explicit `createdAt`, for items imported with their original time. Keeping "now"
 * out of commands also keeps a retried command (same Idempotency-Key) byte-identical.
 */
export const ItemStatus = z.enum(['new', 'planned', 'in-progress', 'shipped', 'declined']);
export type ItemStatus = z.infer<typeof ItemStatus>;
export const PersonTier = z.enum(['anonymous', 'email', 'google']);
export const AuthorKind = z.enum(['maker', 'person', 'agent']);
export type AuthorKind = z.infer<typeof AuthorKind>;
export const ParticipantRole = z.enum(['submitted', 'plus-one', 'replied']);
export type ParticipantRole = z.infer<typeof ParticipantRole>;

export const ItemCapturedData = z.object({
  workspaceId: z.string().min(1),
  productKey: z.string(),
  itemKey: z.string(),
  number: z.number().int().positive(),
  title: z.string().min(1).max(500),
  body: z.string().min(1).max(50_000),
  author: z.object({
    personId: z.string().min(1),
    tier: PersonTier,
    displayName: z.string().nullable(),
    avatar: z.string().nullable(),
  }),
  /** attribution label; absent when posted on the board's own page */
  via: z.string().optional(),
  /** only for imports; otherwise metadata.occurredAt */
  createdAt: z.number().int().optional(),
});
export const ItemEditedData = z.object({
  title: z.string().min(1).max(500).optional(),
  body: z.string().min(1).max(50_000).optional(),
});
export const ItemStatusChangedData = z.object({ from: ItemStatus, to: ItemStatus });
export const ItemTaggedData = z.object({ tagIds: z.array(z.string().min(1).max(60)).max(20) });
export const ItemRepliedData = z.object({
  replyId: z.string().min(1),
  parentId: z.string().min(1).nullable(),
  authorKind: AuthorKind,
  authorId: z.string().min(1),
  authorName: z.string().nullable(),
  authorAvatar: z.string().nullable(),
  body: z.string().min(1).max(10_000),
});
/**
 * Version 2 (upcasters.ts): `addressedTo` is the item the person +1'd — this item, or a merged
 * item whose +1 landed here.
 */
export const PlusOneAddedData = z.object({
  personId: z.string().min(1),
  addressedTo: z.string(),
});
/**
 * The reverse of one PlusOneAdded: the +1 the person gave on `addressedTo` (this item, or a
 * merged item whose +1 landed here). The read models cannot tell whether the person still
 * counts or stays on the item through another contribution (another +1, a reply, a merge), so
 * the decider records where they stand afterwards, as ItemsUnmerged does for its people.
 */
export const PlusOneWithdrawnData = z.object({
  personId: z.string().min(1),
  addressedTo: z.string(),
  /** the person's place among the item's +1s afterwards; null: they no longer count */
  plusOneAt: z.number().int().min(0).nullable(),
  /** the person as a participant afterwards; null: the +1 was their only role and they leave */
  participant: z
    .object({
      at: z.number().int().min(0),
      role: ParticipantRole,
      context: z.string().nullable(),
    })
    .nullable(),
});
/** On the merged item's stream: it now lives on in the survivor. */
export const ItemMergedIntoData = z.object({ survivorKey: z.string() });
const MergedPerson = z.object({ personId: z.string().min(1), role: ParticipantRole });
/** On the survivor's stream: what it took over from each merged item. */
export const ItemsMergedData = z.object({
  merged: z.array(
    z.object({
      itemKey: z.string(),
      /** people new to the survivor, with the role they take on it */
      addedPeople: z.array(MergedPerson),
      /**
       * Only when the survivor is shipped, and only when not empty (absent in events recorded
       * before it was tracked, which carried nobody): people of this item who were told it
       * shipped, and so count on the survivor as told about its shipping — notify_people skips
       * them (`already-notified`) instead of telling them twice.
       */
      told: z.array(z.string().min(1)).optional(),
      /**
       * Likewise: people new to the shipped survivor whom nobody told it shipped. The survivor's
       * last notification did not reach them, so it is announced no longer: it is back in
       * who_needs_followup's shippedUnnotified until notify_people tells them.
       */
      untold: z.array(z.string().min(1)).optional(),
    }),
  ),
});
/**
 * +1s given on the keys of items living inside a merged one (A merged into B, then B into C: a
 * +1 on A lands on C), per key they were given on: when B is given back, they go back with it
 * and stay given on A, on B, where A lives on.
 */
export const InsidePlusOnes = z.array(
  z.object({ itemKey: z.string(), plusOnes: z.array(z.string().min(1)).min(1) }),
);
export type InsidePlusOnes = z.infer<typeof InsidePlusOnes>;
/** On the survivor's stream: the merged items it gives back, undoing ItemsMerged exactly. */
export const ItemsUnmergedData = z.object({
  unmerged: z.array(
    z.object({
      itemKey: z.string(),
      /** people who were here only through this item and leave with it */
      restoredPeople: z.number().int().min(0),
      /** people who +1'd this item's key while it was merged here; the +1s go back with it */
      returnedPlusOnes: z.array(z.string().min(1)),
      /**
       * +1s given here on the keys of items living inside this one; they go back with it too.
       * Left out when none (and in events recorded before it was tracked, which kept them here).
       */
      insidePlusOnes: InsidePlusOnes.optional(),
    }),
  ),
  /** people no longer on the survivor */
  removedPeople: z.array(z.string().min(1)),
  /** people who stay but whose first contribution, and so role, is now another one */
  changedRoles: z.array(z.object({ personId: z.string().min(1), role: ParticipantRole })),
  /** the survivor's people afterwards, in the order they came, as get_item lists them */
  participants: z.array(
    z.object({
      personId: z.string().min(1),
      role: ParticipantRole,
      context: z.string().nullable(),
    }),
  ),
  /** the survivor's +1s afterwards */
  plusOnes: z.array(z.string().min(1)),
});
/** On the merged item's stream: it lives on its own again, with the +1s it got meanwhile. */
export const ItemUnmergedData = z.object({
  survivorKey: z.string(),
  plusOnes: z.array(z.string().min(1)),
  /** +1s given meanwhile on items living inside it, recorded as given on them; left out when none */
  insidePlusOnes: InsidePlusOnes.optional(),
});
export const PeopleNotifiedData = z.object({
  /** the status the requesters were told about */
  status: ItemStatus,
  message: z.string().max(2000).optional(),
  recipients: z.array(
    z.object({
      personId: z.string().min(1),
      delivered: z.boolean(),
      reason: z.string().optional(),
    }),
  ),
});

type Data<S extends z.ZodType> = z.infer<S>;
export type ItemCaptured = DomainEvent<'ItemCaptured', Data<typeof ItemCapturedData>>;
export type ItemEdited = DomainEvent<'ItemEdited', Data<typeof ItemEditedData>>;
export type ItemStatusChanged = DomainEvent<
  'ItemStatusChanged',
  Data<typeof ItemStatusChangedData>
>;
export type ItemTagged = DomainEvent<'ItemTagged', Data<typeof ItemTaggedData>>;
export type ItemReplied = DomainEvent<'ItemReplied', Data<typeof ItemRepliedData>>;
export type PlusOneAdded = DomainEvent<'PlusOneAdded', Data<typeof PlusOneAddedData>>;
export type PlusOneWithdrawn = DomainEvent<'PlusOneWithdrawn', Data<typeof PlusOneWithdrawnData>>;
export type ItemMergedInto = DomainEvent<'ItemMergedInto', Data<typeof ItemMergedIntoData>>;
export type ItemsMerged = DomainEvent<'ItemsMerged', Data<typeof ItemsMergedData>>;
export type ItemsUnmerged = DomainEvent<'ItemsUnmerged', Data<typeof ItemsUnmergedData>>;
export type ItemUnmerged = DomainEvent<'ItemUnmerged', Data<typeof ItemUnmergedData>>;
export type PeopleNotified = DomainEvent<'PeopleNotified', Data<typeof PeopleNotifiedData>>;

export type ItemEvent =
  | ItemCaptured
  | ItemEdited
  | ItemStatusChanged
  | ItemTagged
  | ItemReplied
  | PlusOneAdded
  | PlusOneWithdrawn
  | ItemMergedInto
  | ItemsMerged
  | ItemsUnmerged
  | ItemUnmerged
  | PeopleNotified;

export const itemEventSchemas = {
  ItemCaptured: ItemCapturedData,
  ItemEdited: ItemEditedData,
  ItemStatusChanged: ItemStatusChangedData,
  ItemTagged: ItemTaggedData,
  ItemReplied: ItemRepliedData,
  PlusOneAdded: PlusOneAddedData,
  PlusOneWithdrawn: PlusOneWithdrawnData,
  ItemMergedInto: ItemMergedIntoData,
  ItemsMerged: ItemsMergedData,
  ItemsUnmerged: ItemsUnmergedData,
  ItemUnmerged: ItemUnmergedData,
  PeopleNotified: PeopleNotifiedData,
} as const;
