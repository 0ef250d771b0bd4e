/**
 * The board's static files, read once at start: `/_board/board.css`, `/_board/board.js` (the
 * progressive enhancement of the pages) and `/widget.js` (embedded on other sites, so served with
 * CORS and a cross-origin resource policy). Each has a strong ETag from its content.
 *
 * The stylesheet is kept in parts named for what they hold (assets/board/) and served as one
 * file, the parts joined at start in the order below: one request for a visitor, as before.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Router } from 'express';
import { holdsCurrent } from './conditional.js';

const here = new URL('./assets/', import.meta.url);

interface Asset {
  body: Buffer;
  etag: string;
  type: string;
}

/**
 * board.css's parts, in cascade order: the colours every rule uses first, forced colours last
 * (each of its rules overrides one before it, at the same specificity).
 */
export const BOARD_CSS_PARTS = [
  'theme',
  'layout',
  'forms',
  'items',
  'marks',
  'pages',
  'notices',
  'forced-colours',
].map((part) => `board/${part}.css`);

function load(names: string[], type: string): Asset {
  const body = Buffer.concat(names.map((name) => readFileSync(new URL(name, here))));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, etag, type };
}

export function mountAssets(router: Router): void {
  const files: [string, Asset, boolean][] = [
    ['/_board/board.css', load(BOARD_CSS_PARTS, 'text/css; charset=utf-8'), false],
    ['/_board/board.js', load(['board.js'], 'text/javascript; charset=utf-8'), false],
    ['/widget.js', load(['widget.js'], 'text/javascript; charset=utf-8'), true],
  ];
  for (const [path, asset, embeddable] of files) {
    router.get(path, (req, res) => {
      res.setHeader('Content-Type', asset.type);
      res.setHeader('ETag', asset.etag);
      res.setHeader('Cache-Control', 'public, max-age=300, must-revalidate');
      if (embeddable) {
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      }
      if (holdsCurrent(req.headers['if-none-match'], asset.etag)) {
        res.status(304).end();
        return;
      }
      res.end(asset.body);
    });
  }
}
