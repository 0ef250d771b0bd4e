/**
 * The frame of every board page: one stylesheet and one small script from the board's own
 * origin (no inline code, so the page's CSP can forbid it), a skip link, the product's name and
 * navigation, and a live region the script announces results in. Preact renders to a string and
 * escapes every interpolated value; no user text is ever rendered as HTML.
 */
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { isolated } from '../isolate.js';

export interface BoardNav {
  /** `<base>/<slug>/<key>` */
  boardUrl: string;
  productName: string;
  current: 'board' | 'item' | 'roadmap' | 'changelog' | 'identity' | 'none';
  /** `<base>/_board` where board.css and board.js live */
  assets: string;
}

export function Layout(props: {
  title: string;
  nav: BoardNav | null;
  /** where board.css lives when there is no nav (the 404 page) */
  assets?: string;
  children: ComponentChildren;
}) {
  const { nav } = props;
  const assets = nav?.assets ?? props.assets;
  const link = (to: BoardNav['current'], href: string, label: string) => (
    <a href={href} aria-current={nav?.current === to ? 'page' : undefined}>
      {label}
    </a>
  );
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{props.title}</title>
        {/* no icon of its own: without this, every first visit logs a 404 for /favicon.ico */}
        <link rel="icon" href="data:," />
        {assets ? <link rel="stylesheet" href={`${assets}/board.css`} /> : null}
        {nav ? (
          <link
            rel="alternate"
            type="application/atom+xml"
            title={`${isolated(nav.productName)} changelog`}
            href={`${nav.boardUrl}/changelog.atom`}
          />
        ) : null}
        {nav ? <script src={`${nav.assets}/board.js`} defer /> : null}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        {nav ? (
          <header class="top">
            <p class="product">
              <a href={nav.boardUrl}>{nav.productName}</a>
            </p>
            <nav aria-label="Board">
              {link('board', nav.boardUrl, 'Feedback')}
              {link('roadmap', `${nav.boardUrl}/roadmap`, 'Roadmap')}
              {link('changelog', `${nav.boardUrl}/changelog`, 'Changelog')}
            </nav>
          </header>
        ) : null}
        <main id="main">{props.children}</main>
        <p id="announce" class="visually-hidden" aria-live="polite" />
        <p id="notice" class="notice" role="alert" hidden />
      </body>
    </html>
  );
}

/** A whole document, doctype included. */
export function documentOf(node: preact.VNode): string {
  return `<!doctype html>${renderToString(node)}`;
}

/** A page with a heading and a paragraph: 404, 429, 403, "sent". */
export function MessagePage(props: {
  title: string;
  nav: BoardNav | null;
  assets?: string;
  message: string;
  back?: { href: string; label: string };
}) {
  return (
    <Layout title={props.title} nav={props.nav} assets={props.assets}>
      <h1>{props.title}</h1>
      <p>{props.message}</p>
      {props.back ? (
        <p>
          <a href={props.back.href}>{props.back.label}</a>
        </p>
      ) : null}
    </Layout>
  );
}
