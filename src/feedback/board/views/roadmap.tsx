/** The roadmap: planned, in progress and shipped columns, as get_public_roadmap answers them. */
import type { RoadmapStatus } from '../../../../projections/roadmap/queries.js';
import { type BoardNav, Layout } from './layout.js';
import { isolated } from '../isolate.js';

export interface RoadmapEntryView {
  key: string;
  title: string;
  plusOneCount: number;
  url: string;
}

const COLUMNS: [RoadmapStatus, string][] = [
  ['planned', 'Planned'],
  ['in-progress', 'In progress'],
  ['shipped', 'Shipped'],
];

export function RoadmapPage(v: {
  nav: BoardNav;
  columns: Record<RoadmapStatus, RoadmapEntryView[]>;
}) {
  return (
    <Layout title={`${isolated(v.nav.productName)} roadmap`} nav={v.nav}>
      <h1>{v.nav.productName} roadmap</h1>
      <div class="columns">
        {COLUMNS.map(([status, label]) => (
          <section class={`column column-${status}`} aria-labelledby={`col-${status}`}>
            <h2 id={`col-${status}`}>
              {label} <span class="muted">({v.columns[status].length})</span>
            </h2>
            {v.columns[status].length === 0 ? (
              <p class="empty">Nothing here yet.</p>
            ) : (
              <ul>
                {v.columns[status].map((entry) => (
                  <li>
                    <a href={entry.url} dir="auto">
                      {entry.title}
                    </a>{' '}
                    <span class="muted">
                      <span aria-hidden="true">▲</span> {entry.plusOneCount}
                      <span class="visually-hidden">
                        {entry.plusOneCount === 1 ? ' vote' : ' votes'}
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))}
      </div>
    </Layout>
  );
}
