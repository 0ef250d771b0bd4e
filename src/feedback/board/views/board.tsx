/** The board: the capture box on top, then the items — sort, status filter, search, paging. */
import type { ItemStatus } from '../../../../commands/item/index.js';
import { Layout, type BoardNav } from './layout.js';
import { isolated } from '../isolate.js';
import {
  CaptureForm,
  type CaptureFormProps,
  type FormAuth,
  PlusOneButton,
  STATUS_LABEL,
  Status,
} from './parts.js';

export type BoardSort = 'top' | 'new' | 'trending';

export interface BoardRow {
  key: string;
  title: string;
  status: ItemStatus;
  plusOneCount: number;
  replyCount: number;
  url: string;
  plusOned: boolean;
  /** the visitor submitted it */
  own: boolean;
}

export interface BoardView {
  nav: BoardNav;
  rows: BoardRow[];
  sort: BoardSort;
  status: ItemStatus | null;
  q: string;
  page: number;
  hasNext: boolean;
  capture: CaptureFormProps;
  auth: FormAuth;
}

type ListQuery = { q: string; sort: BoardSort; status: ItemStatus | null; page: number };

/** The board's query string: its sort, filter, search and page, the only parameters it knows. */
export function boardSearch(v: ListQuery): string {
  const params = new URLSearchParams();
  if (v.q) params.set('q', v.q);
  if (v.sort !== 'top') params.set('sort', v.sort);
  if (v.status) params.set('status', v.status);
  if (v.page > 1) params.set('page', String(v.page));
  return params.toString();
}

export function boardHref(boardUrl: string, v: ListQuery): string {
  const search = boardSearch(v);
  return search ? `${boardUrl}?${search}` : boardUrl;
}

const SORTS: [BoardSort, string][] = [
  ['top', 'Top'],
  ['new', 'New'],
  ['trending', 'Trending'],
];

/**
 * The page's title names what it lists, so a search, a filter or a later page is told apart
 * from the board in the tab, the history and a screen reader's list of windows.
 */
function listTitle(v: BoardView): string {
  const q = Array.from(v.q);
  const parts = [
    v.q ? `“${isolated(q.length > 60 ? `${q.slice(0, 60).join('')}…` : v.q)}”` : null,
    v.status ? STATUS_LABEL[v.status] : null,
    v.page > 1 ? `page ${v.page}` : null,
  ].filter((part): part is string => part !== null);
  const board = `${isolated(v.nav.productName)} feedback`;
  return parts.length ? `${parts.join(', ')} · ${board}` : board;
}

export function BoardPage(v: BoardView) {
  const query = (page: number) => boardHref(v.nav.boardUrl, { ...v, page });
  // a +1 form without JavaScript comes back to this very list
  const here = boardSearch(v);
  const title = listTitle(v);
  // a refusal leads the title, so it is the first thing read out when the page comes back
  const refusal = v.capture.refusal;
  return (
    <Layout title={refusal ? `${refusal.headline} · ${title}` : title} nav={v.nav}>
      <h1>{v.nav.productName} feedback</h1>
      <CaptureForm {...v.capture} />
      <form method="get" action={v.nav.boardUrl} class="filters" aria-label="Search and sort">
        <label for="q">Search</label>
        <input id="q" name="q" type="search" value={v.q} maxLength={500} dir="auto" />
        <label for="sort">Sort</label>
        <select id="sort" name="sort">
          {SORTS.map(([value, label]) => (
            <option value={value} selected={v.sort === value}>
              {label}
            </option>
          ))}
        </select>
        <label for="status">Status</label>
        <select id="status" name="status">
          <option value="">Any</option>
          {(Object.keys(STATUS_LABEL) as ItemStatus[]).map((s) => (
            <option value={s} selected={v.status === s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
        <button type="submit">Show</button>
      </form>
      <h2 class="visually-hidden">Items</h2>
      {v.rows.length === 0 ? (
        <p class="empty">
          {v.page > 1
            ? 'No more items: this page is past the last one.'
            : v.q
              ? 'Nothing matches that search yet.'
              : 'No feedback here yet.'}
        </p>
      ) : (
        <ol class="items">
          {v.rows.map((row) => (
            // a +1 without JavaScript comes back to this row (`#item-<KEY>`), not the list's top
            <li class="item" id={`item-${row.key}`}>
              <PlusOneButton
                back="board"
                action={`${row.url}/plus-one`}
                count={row.plusOneCount}
                given={row.plusOned}
                own={row.own}
                query={here}
                title={row.title}
                auth={v.auth}
              />
              <div>
                <a class="title" href={row.url} dir="auto">
                  {row.title}
                </a>
                <p class="meta">
                  <Status status={row.status} /> · {row.replyCount}{' '}
                  {row.replyCount === 1 ? 'reply' : 'replies'}
                </p>
              </div>
            </li>
          ))}
        </ol>
      )}
      {/* only when there is another page: an empty "Pages" landmark is read out for nothing */}
      {v.page > 1 || v.hasNext ? (
        <nav class="pager" aria-label="Pages">
          {v.page > 1 ? (
            <a href={query(v.page - 1)} rel="prev">
              Previous
            </a>
          ) : null}
          {v.hasNext ? (
            <a href={query(v.page + 1)} rel="next">
              Next
            </a>
          ) : null}
        </nav>
      ) : null}
    </Layout>
  );
}
