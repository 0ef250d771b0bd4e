/**
 * Issue 17's hot-spot case: 50 connections all submitting to one product, and all replying to
 * one item, beside the same writes spread over 50 products / 50 items. Targets: 0 errors, and the
 * hot spot at ≥ 50 % of the spread-out rate (per-stream batching keeps a burst on one stream from
 * collapsing into conflicts and one fsync per write).
 */
import type { LoadResult } from './api-load.js';
import { load, row } from './api-report.js';

export interface HotspotBoard {
  /** the feedback service's origin */
  origin: string;
  slug: string;
  /** items of the bench product (their paths under …/products/{product}/items/) */
  product: string;
  itemKeys: string[];
  /** one maker token for replies */
  token: string;
  productKeys: string[];
  callerTokens: string[];
}

const TARGET = 0.5;

function verdict(name: string, hot: LoadResult, spread: LoadResult): string {
  const ratio = hot.rps / spread.rps;
  const clean = hot.non2xx + hot.errors === 0 && spread.non2xx + spread.errors === 0;
  const pass = clean && ratio >= TARGET;
  return (
    `${name}: hot spot ${(ratio * 100).toFixed(1)} % of spread-out ` +
    `(target ≥ ${TARGET * 100} %, 0 errors)  ${pass ? 'PASS' : 'FAIL'}`
  );
}

export async function hotspotRuns(board: HotspotBoard): Promise<string[]> {
  const lines: string[] = [];
  const submitUrl = `${board.origin}/v1/public/${board.slug}/`;
  const submission = JSON.stringify({ body: 'Hot-spot bench submission number {n}' });
  const spreadSubmit = await load({
    url: submitUrl,
    rotate: {
      paths: board.productKeys.map((k) => `${k}/feedback`),
      tokens: board.callerTokens,
      body: submission,
    },
  });
  lines.push(row(`submit_feedback over ${board.productKeys.length} products`, spreadSubmit));
  const hotSubmit = await load({
    url: submitUrl,
    rotate: {
      paths: [`${board.productKeys[0]}/feedback`],
      tokens: board.callerTokens,
      body: submission,
    },
  });
  lines.push(row('submit_feedback, all to one product', hotSubmit));

  const itemsUrl = `${board.origin}/v1/workspaces/${board.slug}/products/${board.product}/items/`;
  const reply = JSON.stringify({ body: 'Hot-spot bench reply number {n}' });
  const spreadReply = await load({
    url: itemsUrl,
    rotate: {
      paths: board.itemKeys.map((k) => `${k}/replies`),
      tokens: [board.token],
      body: reply,
    },
  });
  lines.push(row(`reply_to_item over ${board.itemKeys.length} items`, spreadReply));
  const hotReply = await load({
    url: itemsUrl,
    rotate: { paths: [`${board.itemKeys[0]}/replies`], tokens: [board.token], body: reply },
  });
  lines.push(row('reply_to_item, all to one item', hotReply));
  lines.push('');
  lines.push(verdict('submit_feedback', hotSubmit, spreadSubmit));
  lines.push(verdict('reply_to_item', hotReply, spreadReply));
  return lines;
}
