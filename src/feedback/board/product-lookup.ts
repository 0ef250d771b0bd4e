/**
 * The public product at an address, with the version of its pages (versions.ts) — remembered,
 * so the pages' hot path reads the store only after a change of that product (or, for an
 * address no workspace has, after a workspace takes its slug). Another tenant's writes leave it
 * be: they neither cost this board a read nor show in how fast it answers.
 *
 * The version answered goes with the product answered: a change heard while the store was read
 * may or may not be in what was read, so that answer carries no version (its page is rendered
 * afresh and not kept) and is not remembered.
 *
 * Real boards are remembered per tenant (the workspace's slug; tenant-lru.ts: a tenth of the bound
 * each), so a workspace with many public products does not push other workspaces' boards out.
 * Addresses no public product has are remembered apart from the boards', in a smaller bound:
 * anyone can ask for any number of made-up addresses, and those must not push a real board out
 * (nor let its answer time tell an observer how busy others are).
 */
import type { RecordedEvent } from '../../eventstore/types.js';
import type { PendingEvents } from '../../platform/catch-up.js';
import type { ReadStore } from '../../readstore/types.js';
import { type PublicProduct, productAt } from './queries.js';
import { createTenantLru } from './tenant-lru.js';
import { type BoardVersions, pageScopes, scopesOf, slugScope } from './versions.js';

export type ProductLookup = (
  slug: string,
  key: string,
) => Promise<{ product: PublicProduct | null; version: string | null }>;

interface Known {
  product: PublicProduct | null;
  /** what the answer depends on */
  scopes: string[];
  /** `versions.now()` before the store was read: a change since is above it */
  readAt: number;
}

export function createProductLookup(
  store: ReadStore,
  deps: {
    /**
     * the events of the board's streams the read models lack (ServiceContext.pendingOn); null
     * where the read models change without this process hearing of it (MongoDB)
     */
    pending: (() => Promise<PendingEvents>) | null;
    versions: BoardVersions;
  },
  max = 1000,
): ProductLookup {
  const { versions, pending } = deps;
  const found = createTenantLru<Known>(max, Math.max(1, Math.floor(max / 10)));
  const missing = new Map<string, Known>();
  const lacking = lackingOf();

  async function lookUp(slug: string, key: string): Promise<Answer> {
    const address = `${slug}/${key}`;
    const hit = found.get(slug, key) ?? missing.get(address);
    if (hit) {
      const version = versions.versionOf(hit.scopes);
      if (version <= hit.readAt) return { ...hit, version: String(version) };
    }
    const readAt = versions.now();
    const { workspaceId, product } = await productAt(store, slug, key);
    const scopes = workspaceId ? pageScopes(workspaceId, key) : [slugScope(slug)];
    const version = versions.versionOf(scopes);
    if (version > readAt) return { product, scopes, version: null };
    found.delete(slug, key);
    missing.delete(address);
    const known = { product, scopes, readAt };
    if (product) found.set(slug, key, known);
    else {
      missing.set(address, known);
      if (missing.size > Math.ceil(max / 4)) missing.delete(missing.keys().next().value as string);
    }
    return { product, scopes, version: String(version) };
  }

  return async (slug, key) => {
    if (!pending) return { product: (await productAt(store, slug, key)).product, version: null };
    // first: what other processes wrote that the read models lack (at most every 50 ms); the
    // page waits only for its own product's and workspace's, never for another's or for an
    // unrelated projector's lag (versions.ts)
    const log = await pending();
    let answer = await lookUp(slug, key);
    const position = lacking(log.events, answer.scopes);
    if (position > 0n) {
      await log.waitFor(position);
      answer = await lookUp(slug, key);
    }
    return { product: answer.product, version: answer.version };
  };
}

interface Answer {
  product: PublicProduct | null;
  scopes: string[];
  version: string | null;
}

/**
 * The newest of `events` that changes any of `scopes` (0n: none). Each list of events is indexed
 * once by the scopes its events change (a changed list is a new array, catch-up.ts), so a view
 * costs a look-up per scope however many events a lagging projector leaves pending.
 */
function lackingOf(): (events: readonly RecordedEvent[], scopes: readonly string[]) => bigint {
  let indexed: readonly RecordedEvent[] = [];
  let newest = new Map<string, bigint>();
  return (events, scopes) => {
    if (events.length === 0) return 0n;
    if (events !== indexed) {
      newest = new Map();
      for (const event of events) {
        for (const scope of scopesOf(event)) newest.set(scope, event.position);
      }
      indexed = events;
    }
    let position = 0n;
    for (const scope of scopes) {
      const at = newest.get(scope) ?? 0n;
      if (at > position) position = at;
    }
    return position;
  };
}
