/**
 * The changelog's Atom feed (`/{slug}/{key}/changelog.atom`), written with the `feed` package.
 * Entries are plain text: the feed carries them as HTML content, so the text is escaped and
 * its line breaks become <br> — nothing a maker typed turns into markup in a feed reader.
 * RFC 4287 §4.1.1 wants an author on the feed or on every entry: the feed's is the workspace
 * that publishes the board. `updated` is the latest change, and the product's creation while
 * nothing was published (never the epoch). Each entry links its items as the changelog page
 * does, each link named by the item's key and title ("APP-1, APP-2" alone is only codes).
 *
 * Each linked title is set between U+2068 and U+2069 (isolate.ts), so a Hebrew or Arabic title
 * moves neither its key nor the comma and the next link. The page does it with `dir="auto"`, but
 * a feed reader shows entries through its own sanitizer, which keeps text and only the markup it
 * knows: Miniflux drops `<span>`, `<bdi>` and `dir` alike; feedparser (the Python readers) keeps
 * `dir` on a `<span>` but drops `<bdi>`. The isolates are text, so they reach every reader, and
 * every browser engine a reader renders with honours them.
 */
import { Feed } from 'feed';
import type { ChangelogEntry } from '../../../projections/changelog/queries.js';
import { esc } from '../../auth/interaction/views.js';
import { isolated } from './isolate.js';

const asHtml = (text: string) => esc(text).replaceAll('\n', '<br>');

/**
 * Characters XML 1.0 forbids (C0 controls but tab, CR and LF; U+FFFE, U+FFFF; lone surrogates).
 * Anyone may file text with a NUL in it, and one such character makes the whole feed not
 * well-formed, so strict readers refuse every entry: each becomes U+FFFD.
 */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML forbids
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function changelogAtom(input: {
  productName: string;
  publisher: string;
  /** when the product was created: the feed's `updated` before anything changed */
  since: number;
  boardUrl: string;
  entries: ChangelogEntry[];
  /** the linked items' titles, by key (from the items read model: the entry holds keys only) */
  itemTitles: Map<string, string>;
}): string {
  const { boardUrl, entries, itemTitles } = input;
  const itemLinks = (keys: string[]) =>
    keys
      .map((key) => {
        const title = itemTitles.get(key);
        return `<a href="${esc(`${boardUrl}/items/${key}`)}">${esc(title ? `${key} ${isolated(title)}` : key)}</a>`;
      })
      .join(', ');
  const updated = Math.max(input.since, ...entries.map((entry) => entry.updatedAt));
  const feed = new Feed({
    // the feed's own title and subtitle go out as type="text": the package escapes them itself
    title: `${isolated(input.productName)} changelog`,
    description: `What shipped in ${isolated(input.productName)}`,
    id: `${boardUrl}/changelog`,
    link: `${boardUrl}/changelog`,
    language: 'en',
    updated: new Date(updated),
    author: { name: input.publisher },
    generator: 'feedback board',
    feedLinks: { atom: `${boardUrl}/changelog.atom` },
    copyright: '',
  });
  for (const entry of entries) {
    feed.addItem({
      // an entry's title goes out as type="html" too
      title: esc(entry.title),
      id: `${boardUrl}/changelog#entry-${entry.id}`,
      link: `${boardUrl}/changelog#entry-${entry.id}`,
      date: new Date(entry.updatedAt),
      published: new Date(entry.publishedAt),
      content:
        asHtml(entry.body) + (entry.itemIds.length > 0 ? `<p>${itemLinks(entry.itemIds)}</p>` : ''),
    });
  }
  return feed.atom1().replace(NOT_XML, '\uFFFD');
}
