/**
 * Versions of what the board's pages show, one per product, so that a page cached for everyone
 * (page-answer.ts) and the product at an address (queries.ts) are read again only after a change
 * of that product: another tenant's writes neither void them nor, by the slower answer a page
 * rendered afresh gives, tell a visitor when that tenant wrote.
 *
 * What a product's pages show, and the events that change it:
 * - the address: the workspace's slug and name (workspace-<ws>: set when it is created, never
 *   renamed) and the product's name and visibility (product-<ws>.<KEY>);
 * - its items, +1s, statuses, replies, merges and unmerges (item-<ws>.<KEY>-<n>; a merge joins
 *   items of one product only, actions/merge.ts, so the survivor's stream names them all);
 * - its changelog (changelog-<ws>.<KEY>-<n>).
 * People and users are not shown but as names copied into those events; the visitor's own +1s
 * and items are shown only on pages not cached (page-answer.ts: `shared`). Nothing moves an item
 * to another product or deletes an item, a product or a workspace.
 *
 * A version is a count of the events heard that changed the product, the workspace or (for an
 * address no workspace has yet) the slug: equal counts, equal pages. It lives in memory, as the
 * caches do: a restart starts both afresh, and an event replayed by a rebuild moves it again.
 */
import { parseItemStreamId } from '../../../commands/item/index.js';
import { productKeyOf } from '../../../commands/product/index.js';
import type { EventFilter, RecordedEvent } from '../../eventstore/types.js';

/** the parts an event can change (scopesOf) */
export const productScope = (workspaceId: string, key: string) => `product:${workspaceId}.${key}`;
export const workspaceScope = (workspaceId: string) => `workspace:${workspaceId}`;
/** an address whose slug no workspace had: a workspace created with it makes it one */
export const slugScope = (slug: string) => `slug:${slug}`;

/** What the pages a product shows depend on (see the top of this file). */
export const pageScopes = (workspaceId: string, key: string): string[] => [
  workspaceScope(workspaceId),
  productScope(workspaceId, key),
];

/**
 * The streams whose events can change a board page (scopesOf names which): a page waits for the
 * read models to include those of its own product the log holds (product-lookup.ts), and for
 * nothing else — not for an unrelated projector's lag.
 */
export const BOARD_STREAMS: EventFilter = {
  streamPrefixes: ['item-', 'changelog-', 'product-', 'workspace-'],
};

/** The parts of the board an event changes. */
export function scopesOf(event: RecordedEvent): string[] {
  const { streamId } = event;
  const dash = streamId.indexOf('-');
  const id = streamId.slice(dash + 1);
  switch (streamId.slice(0, dash)) {
    case 'item':
    case 'changelog': {
      // both are `<kind>-<ws>.<ITEMKEY>`, and an item key starts with its product's
      const where = parseItemStreamId(`item-${id}`);
      const key = where && productKeyOf(where.itemKey);
      return where && key ? [productScope(where.workspaceId, key)] : [];
    }
    case 'product': {
      const dot = id.indexOf('.');
      return dot > 0 ? [productScope(id.slice(0, dot), id.slice(dot + 1))] : [];
    }
    case 'workspace': {
      const { slug } = event.data as { slug?: unknown };
      const scopes = [workspaceScope(id)];
      if (event.type === 'WorkspaceCreated' && typeof slug === 'string')
        scopes.push(slugScope(slug));
      return scopes;
    }
    default:
      return [];
  }
}

export type BoardVersions = ReturnType<typeof createBoardVersions>;

export function createBoardVersions() {
  let heard = 0;
  const changedAt = new Map<string, number>();
  return {
    /** an event the read models now include (ServiceContext.observeApplied) */
    heard(event: RecordedEvent): void {
      const scopes = scopesOf(event);
      if (scopes.length === 0) return;
      heard += 1;
      for (const scope of scopes) changedAt.set(scope, heard);
    },
    /** the count now: a part changed from here on has a version above it */
    now: (): number => heard,
    /** the latest change of any of `scopes` (0: none since the process started) */
    versionOf(scopes: readonly string[]): number {
      let latest = 0;
      for (const scope of scopes) latest = Math.max(latest, changedAt.get(scope) ?? 0);
      return latest;
    },
  };
}
