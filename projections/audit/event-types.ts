/**
 * The event types the audit trail lists, so list_audit_events can refuse a `type` it will never
 * hold (a misspelt or webhook-style name would otherwise answer an empty page, as if nothing
 * had happened). A Record over the aggregates' event unions: adding an event type to one of
 * them fails to compile until it is listed here or skipped.
 */
import type { ChangelogEvent } from '../../commands/changelog/index.js';
import type { IntegrationEvent } from '../../commands/integration/index.js';
import type { ItemEvent } from '../../commands/item/index.js';
import type { PersonEvent } from '../../commands/person/index.js';
import type { ProductEvent } from '../../commands/product/index.js';
import type { WebhookEvent } from '../../commands/webhook/index.js';
import type { WorkspaceEvent } from '../../commands/workspace/index.js';

/** the product's item-number bookkeeping: not a change anyone made */
export const SKIPPED_TYPES = new Set(['ItemNumberAllocated']);

type Audited = Exclude<
  (
    | WorkspaceEvent
    | ProductEvent
    | ItemEvent
    | PersonEvent
    | ChangelogEvent
    | WebhookEvent
    | IntegrationEvent
  )['type'],
  'ItemNumberAllocated'
>;

/**
 * Where each type lives: `product` — a product's own, its items' and changelog entries' events,
 * and the person events a submission or +1 recorded (projector.ts); `workspace` — the
 * workspace's, its members', webhooks' and integration credentials', which belong to no product,
 * so a `productKey` filter never holds them (list_audit_events refuses the pair with 400).
 */
const AUDITED: Record<Audited, 'product' | 'workspace'> = {
  WorkspaceCreated: 'workspace',
  MemberAdded: 'workspace',
  MemberRoleChanged: 'workspace',
  MemberRemoved: 'workspace',
  ProductCreated: 'product',
  ProductRenamed: 'product',
  ProductVisibilityChanged: 'product',
  ItemCaptured: 'product',
  ItemEdited: 'product',
  ItemStatusChanged: 'product',
  ItemTagged: 'product',
  ItemReplied: 'product',
  PlusOneAdded: 'product',
  PlusOneWithdrawn: 'product',
  ItemMergedInto: 'product',
  ItemsMerged: 'product',
  ItemUnmerged: 'product',
  ItemsUnmerged: 'product',
  PeopleNotified: 'product',
  PersonCreated: 'product',
  PersonUpdated: 'product',
  ChangelogEntryPublished: 'product',
  ChangelogEntryRevised: 'product',
  WebhookCreated: 'workspace',
  WebhookUpdated: 'workspace',
  WebhookSecretRotated: 'workspace',
  WebhookDisabled: 'workspace',
  WebhookEnabled: 'workspace',
  WebhookDeleted: 'workspace',
  IntegrationCreated: 'workspace',
  IntegrationRevoked: 'workspace',
};

export const AUDITED_EVENT_TYPES = Object.keys(AUDITED).sort() as [Audited, ...Audited[]];

/** Whether events of `type` can be in a product's trail (false: the workspace's only). */
export const mayBeOfProduct = (type: Audited): boolean => AUDITED[type] === 'product';
