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

const AUDITED: Record<Audited, true> = {
  WorkspaceCreated: true,
  MemberAdded: true,
  MemberRoleChanged: true,
  MemberRemoved: true,
  ProductCreated: true,
  ProductRenamed: true,
  ProductVisibilityChanged: true,
  ItemCaptured: true,
  ItemEdited: true,
  ItemStatusChanged: true,
  ItemTagged: true,
  ItemReplied: true,
  PlusOneAdded: true,
  PlusOneWithdrawn: true,
  ItemMergedInto: true,
  ItemsMerged: true,
  ItemUnmerged: true,
  ItemsUnmerged: true,
  PeopleNotified: true,
  PersonCreated: true,
  PersonUpdated: true,
  ChangelogEntryPublished: true,
  ChangelogEntryRevised: true,
  WebhookCreated: true,
  WebhookUpdated: true,
  WebhookSecretRotated: true,
  WebhookDisabled: true,
  WebhookEnabled: true,
  WebhookDeleted: true,
  IntegrationCreated: true,
  IntegrationRevoked: true,
};

export const AUDITED_EVENT_TYPES = Object.keys(AUDITED).sort() as [Audited, ...Audited[]];
