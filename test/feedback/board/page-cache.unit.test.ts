/**
 * The board's page cache is shared by every tenant, but one tenant must not evict another's
 * pages: a busy tenant's views pushing another board's pages out would let an observer time how
 * busy others are. Rule (page-cache.ts): a tenant over its share drops its own least recently
 * used page; a full cache drops from the tenant holding the most pages.
 */
import { expect } from 'chai';
import { createPageCache } from '../../../src/feedback/board/page-cache.js';

describe('The board page cache', () => {
  it('keeps a quiet tenant’s page however many pages a busy tenant renders', () => {
    const cache = createPageCache(10, 6);
    cache.set('quiet', '/q/APP', 'v1', '<p>quiet</p>');
    for (let i = 0; i < 100; i++) cache.set('busy', `/b/APP?page=${i}`, 'v1', `<p>${i}</p>`);
    expect(cache.get('quiet', '/q/APP', 'v1'), 'the quiet board’s page').to.not.equal(null);
    expect(cache.sizeOf('busy')).to.equal(6);
  });

  it('evicts from the largest tenant when the whole cache is full, least recently used first', () => {
    const cache = createPageCache(6, 6);
    for (const t of ['a', 'b']) cache.set(t, `/${t}/1`, 'v', t);
    for (let i = 0; i < 4; i++) cache.set('c', `/c/${i}`, 'v', String(i));
    expect(cache.get('c', '/c/0', 'v')).to.not.equal(null); // /c/0 is now the most recent
    cache.set('a', '/a/2', 'v', 'a2');
    expect(cache.sizeOf('a')).to.equal(2);
    expect(cache.sizeOf('b')).to.equal(1);
    expect(cache.sizeOf('c')).to.equal(3);
    expect(cache.get('c', '/c/1', 'v'), 'c’s least recently used page').to.equal(null);
    expect(cache.get('c', '/c/0', 'v')).to.not.equal(null);
  });

  it('forgets a tenant whose last page went, so the cache does not grow with every board seen', () => {
    const cache = createPageCache(4, 4);
    for (let i = 0; i < 20; i++) cache.set(`tenant-${i}`, '/x', 'v', 'x');
    expect(cache.tenantsHeld()).to.equal(4);
  });

  it('answers a page only for its tenant and version', () => {
    const cache = createPageCache();
    cache.set('a', '/x', 'v1', 'x');
    expect(cache.get('b', '/x', 'v1')).to.equal(null);
    expect(cache.get('a', '/x', 'v2')).to.equal(null);
  });
});
