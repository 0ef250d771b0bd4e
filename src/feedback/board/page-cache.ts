/**
 * Rendered board pages for visitors without a cookie (most of a public board's traffic), kept
 * per address and version of the product's pages (versions.ts: equal versions, equal pages), so
 * a page is rendered once per change of its product instead of once per view. The form token, the
 * one per-view value, is cut out at a slot and put back fresh on every answer. The parts are kept
 * as UTF-8 bytes, so an answer copies them instead of encoding the whole page again.
 *
 * Bounded per tenant (a workspace) under a global cap, so one board's traffic never pushes
 * another's pages out (which would also let an observer time how busy other boards are): a
 * tenant over its own share drops its least recently used page; when the whole cache is full, the
 * tenant holding the most pages drops its least recently used one.
 *
 * Each page keeps a digest of what it shows (the page with the slot, not the token): the page's
 * validator. The version moves with every change of the product's workspace and of any of its
 * pages, so a tag made of it would tell a visitor polling one page of other changes, and would
 * void the page's tag on each of them. A digest of the page changes exactly when the page does.
 */
import { createHash } from 'node:crypto';

export const TOKEN_SLOT = 'form-token-slot-3f9c2a';

export interface CachedPage {
  version: string;
  parts: Buffer[];
  /** what the page shows, hashed: equal digests, equal pages (but for the form token) */
  digest: string;
}

export function createPageCache(max = 500, perTenant = 50) {
  const tenants = new Map<string, Map<string, CachedPage>>();
  let size = 0;
  /** a tenant's least recently used page; a tenant left with none is forgotten with it */
  function drop(tenant: string, pages: Map<string, CachedPage>): void {
    pages.delete(pages.keys().next().value as string);
    size--;
    if (pages.size === 0) tenants.delete(tenant);
  }
  return {
    get(tenant: string, key: string, version: string): CachedPage | null {
      const pages = tenants.get(tenant);
      const page = pages?.get(key);
      if (!pages || !page || page.version !== version) return null;
      pages.delete(key);
      pages.set(key, page);
      return page;
    },
    set(tenant: string, key: string, version: string, html: string): CachedPage {
      const page = {
        version,
        parts: html.split(TOKEN_SLOT).map((part) => Buffer.from(part)),
        digest: createHash('sha256').update(html).digest('base64url').slice(0, 22),
      };
      let pages = tenants.get(tenant);
      if (!pages) {
        pages = new Map();
        tenants.set(tenant, pages);
      }
      if (pages.delete(key)) size--;
      pages.set(key, page);
      size++;
      if (pages.size > perTenant) drop(tenant, pages);
      if (size > max) {
        let largest: [string, Map<string, CachedPage>] = [tenant, pages];
        for (const other of tenants) if (other[1].size > largest[1].size) largest = other;
        drop(...largest);
      }
      return page;
    },
    /** how many pages a tenant holds (for tests) */
    sizeOf(tenant: string): number {
      return tenants.get(tenant)?.size ?? 0;
    },
    /** how many tenants hold pages (for tests) */
    tenantsHeld(): number {
      return tenants.size;
    },
  };
}

export function fill(page: CachedPage, token: string): Buffer {
  const value = Buffer.from(token);
  const chunks: Buffer[] = [];
  page.parts.forEach((part, i) => {
    if (i > 0) chunks.push(value);
    chunks.push(part);
  });
  return Buffer.concat(chunks);
}
