/**
 * The changelog page: published entries, newest first, with a link to the Atom feed; a later
 * page links to the older entries and back to the newest (its pages are keyed by the last entry
 * shown, so there is no "newer" page to name but the first).
 */
import type { ChangelogEntry } from '../../../../projections/changelog/queries.js';
import { type BoardNav, Layout } from './layout.js';
import { isolated } from '../isolate.js';
import { DateShown } from './parts.js';

export function ChangelogPage(v: {
  nav: BoardNav;
  entries: ChangelogEntry[];
  itemUrl: (key: string) => string;
  /** the linked items' titles, by key (from the items read model: the entry holds keys only) */
  itemTitles: Map<string, string>;
  nextUrl: string | null;
  /** the first page, from any later one */
  newestUrl: string | null;
}) {
  return (
    <Layout title={`${isolated(v.nav.productName)} changelog`} nav={v.nav}>
      <h1>{v.nav.productName} changelog</h1>
      <p>
        <a href={`${v.nav.boardUrl}/changelog.atom`}>Follow the changelog (Atom feed)</a>
      </p>
      {v.entries.length === 0 ? <p class="empty">Nothing shipped yet.</p> : null}
      {v.entries.map((entry) => (
        <article class="entry" id={`entry-${entry.id}`}>
          <h2 dir="auto">{entry.title}</h2>
          <p class="meta">
            <DateShown ms={entry.publishedAt} />
            {entry.requestedByCount > 0
              ? ` · asked for by ${entry.requestedByCount} ${entry.requestedByCount === 1 ? 'person' : 'people'}`
              : null}
          </p>
          <p class="text" dir="auto">
            {entry.body}
          </p>
          {/* each link names its item by key and title: a bare "APP-1" is only a code to a
              screen reader reading the links */}
          <p class="meta">
            {entry.itemIds.map((key, i) => {
              const title = v.itemTitles.get(key);
              return (
                <>
                  {i > 0 ? ', ' : ''}
                  <a href={v.itemUrl(key)}>
                    {key}
                    {title ? (
                      <>
                        {' '}
                        <span dir="auto">{title}</span>
                      </>
                    ) : null}
                  </a>
                </>
              );
            })}
          </p>
        </article>
      ))}
      {v.nextUrl || v.newestUrl ? (
        <nav class="pager" aria-label="Pages">
          {v.newestUrl ? <a href={v.newestUrl}>Newest entries</a> : null}
          {v.nextUrl ? (
            <a href={v.nextUrl} rel="next">
              Older entries
            </a>
          ) : null}
        </nav>
      ) : null}
    </Layout>
  );
}
