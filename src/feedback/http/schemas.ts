/**
 * The feedback spec's identifiers and resources as zod schemas, declared once (OpenAPI component
 * names are process-wide, hence the `Item…`/`Feedback…` names). Every limit and enum of the spec
 * is a schema constraint here so OpenAPI shows it.
 */
import { z } from 'zod';

const MAX_INT = 9007199254740991; // spec: "integer fields: at most 9007199254740991"
export const Count = z.number().int().min(0).max(MAX_INT);
export const Timestamp = z
  .number()
  .int()
  .min(0)
  .max(MAX_INT)
  .describe('milliseconds since the Unix epoch');

export const Slug = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){4,19}$/, {
    message: 'slug must be 5 to 20 lowercase letters, digits or single hyphens, not at either end',
  })
  .describe('workspace slug');
export const ProductKey = z
  .string()
  .regex(/^[A-Z]{3,5}$/, { message: 'product key must be 3 to 5 uppercase letters' })
  .describe('product key');
export const ItemKey = z
  .string()
  .regex(/^[A-Z]{3,5}-[1-9]\d*$/, {
    message: 'item key must be a product key, a hyphen and a positive number without leading zero',
  })
  .describe('item key');
export const PersonId = z
  .string()
  .min(1)
  .describe(
    "a person's id, as list_people and search_people answer it (`personId` in get_item's participants)",
  );

export const ItemStatus = z
  .enum(['new', 'planned', 'in-progress', 'shipped', 'declined'])
  .meta({ id: 'ItemStatus' });
export const Visibility = z.enum(['private', 'public']).meta({ id: 'ProductVisibility' });
export const Tier = z.enum(['anonymous', 'email', 'google']).meta({ id: 'PersonTier' });

export const Product = z
  .object({
    id: ProductKey,
    name: z.string().min(1).max(200),
    visibility: Visibility,
    itemCount: Count,
    nextItemNumber: z.number().int().min(1).max(MAX_INT),
    createdAt: Timestamp,
  })
  .strict()
  .meta({ id: 'Product' });

export const Item = z
  .object({
    id: ItemKey,
    productId: ProductKey,
    status: ItemStatus,
    title: z.string(),
    body: z.string(),
    rank: z.string().describe('opaque ordering value'),
    tagIds: z.array(z.string()),
    plusOneCount: Count,
    replyCount: Count,
    author: z
      .object({ tier: Tier, displayName: z.string().nullable(), avatar: z.string().nullable() })
      .strict(),
    via: z
      .string()
      .optional()
      .describe('attribution label; absent when the item was posted on the board page itself'),
    notifiedAt: z.number().nullable(),
    statusChangedAt: z.number().nullable(),
    createdAt: Timestamp,
    createdBy: z.string(),
    updatedAt: Timestamp,
  })
  .strict()
  .meta({ id: 'Item' });

export const Reply = z
  .object({
    id: z.string().min(1),
    itemId: ItemKey,
    productId: ProductKey,
    authorKind: z.enum(['maker', 'person', 'agent']),
    authorId: z.string().min(1),
    authorName: z.string().nullable(),
    authorAvatar: z.string().nullable(),
    parentId: z.string().min(1).nullable(),
    body: z.string(),
    createdAt: Timestamp,
  })
  .strict()
  .meta({ id: 'Reply' });

export const Participant = z
  .object({
    personId: z.string(),
    role: z.string(),
    displayName: z.string().nullable(),
    avatar: z.string().nullable(),
    context: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'Participant' });

export const PersonSummary = z
  .object({
    id: z.string().min(1),
    tier: Tier,
    displayName: z.string().nullable(),
    avatar: z.string().nullable(),
    email: z.string().nullable(),
    lastContactAt: z.number().nullable(),
    createdAt: Timestamp,
  })
  .strict()
  .meta({ id: 'PersonSummary' });

export const FollowUpEntry = z
  .object({
    id: z.string(),
    productId: z.string(),
    title: z.string(),
    status: z.string(),
    statusChangedAt: z.number().nullable(),
    plusOneCount: Count,
  })
  .strict()
  .meta({ id: 'FollowUpEntry' });

/** Path parameters shared by the routes under a product and under an item. */
export const WorkspaceParams = z.object({ slug: Slug });
export const ProductParams = z.object({ slug: Slug, key: ProductKey });
export const ItemParams = z.object({ slug: Slug, key: ProductKey, itemKey: ItemKey });

/**
 * Whom an OAuth client acted for, beside the client itself: the `actingFor` of an `agent` actor
 * (history, audit trail, webhook messages). The label says through what (`api:<client name>`).
 */
export const ActingFor = z
  .object({
    kind: z.enum(['maker', 'person']),
    id: z.string().describe('the user (or person) id'),
    name: z.string().nullable().describe('their display name'),
  })
  .strict()
  .describe('an OAuth client only (`via` `api:…`): the user it acted for; absent otherwise')
  .meta({ id: 'ActingFor' });
