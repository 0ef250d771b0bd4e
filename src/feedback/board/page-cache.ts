/**
 * Rendered board pages for visitors without a cookie (most of a public board's traffic), kept
 * per address and version of the product's pages (versions.ts: equal versions, equal pages), so
 * a page is rendered once per change of its product instead of once per view. The form token, the
 * one per-view value, is cut out at a slot and put back fresh on every answer. The parts are kept
 * as UTF-8 bytes, so an answer copies them instead of encoding the whole page again.
 *
 * Bounded per tenant (a workspace) under a global cap (tenant-lru.ts), so one board's traffic
 * never pushes another's pages out.
 *
 * Each page keeps a digest of what it shows (the page with the slot, not the token): the page's
 * validator. The version moves with every change of the product's workspace and of any of its
 * pages, so a tag made of it would tell a visitor polling one page of other changes, and would
 * void the page's tag on each of them. A digest of the page changes exactly when the page does.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createTenantLru } from './tenant-lru.js';

/**
 * Where the form token goes: random per process and never sent (every answer fills it), so no
 * submitter can write it into a title or body — a fixed marker typed into a title was replaced
 * by the viewer's form token, and the page no longer showed what was written.
 */
export const TOKEN_SLOT = `form-token-slot-${randomBytes(16).toString('hex')}`;

export interface CachedPage {
  version: string;
  parts: Buffer[];
  /** what the page shows, hashed: equal digests, equal pages (but for the form token) */
  digest: string;
}

export function createPageCache(max = 500, perTenant = 50) {
  const pages = createTenantLru<CachedPage>(max, perTenant);
  return {
    get(tenant: string, key: string, version: string): CachedPage | null {
      const page = pages.get(tenant, key);
      return page && page.version === version ? page : null;
    },
    set(tenant: string, key: string, version: string, html: string): CachedPage {
      const page = {
        version,
        parts: html.split(TOKEN_SLOT).map((part) => Buffer.from(part)),
        digest: createHash('sha256').update(html).digest('base64url').slice(0, 22),
      };
      pages.set(tenant, key, page);
      return page;
    },
    sizeOf: pages.sizeOf,
    tenantsHeld: pages.tenantsHeld,
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
