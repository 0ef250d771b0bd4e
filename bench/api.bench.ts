/**
 * `npm run bench:api` — the feedback API against bare Express, in one run, all on 127.0.0.1:
 *   1. seed a temp DATA_DIR through the actions (workspace, product, 50 items, a personal token);
 *   2. start the whole service (`src/processes/all.ts`) in a child process over it, and capture the
 *      list_items answer (50 items);
 *   3. start bare Express in ANOTHER process: the same 50-item JSON, and a small JSON;
 *   4. drive each with autocannon from a third process, bounded in time.
 * Targets (issue 11, with Express on every operation's path): list_items ≥ 100 % of bare
 * Express serving the same 50-item JSON; get_item ≥ 80 % of bare Express small JSON;
 * update_item_status (durable: every request changes a status) ≥ 70 % of bare Express small
 * POST; p99 ≤ 30 ms at 50 connections. Issue 12: the public board page (50 items) for an
 * anonymous visitor ≥ 80 % of bare Express sending the same HTML string. The small requests are also put beside bare node:http,
 * with no target: the limit of the transport. Then the hot spots of issue 17 (api-hotspot.ts).
 * Each targeted operation and its baseline run in BENCH_PAIRS alternating pairs (default 3) and
 * the target is checked against the median ratio of the pairs (api-report.ts `compare`).
 * Env: BENCH_SECONDS (per run, default 5), BENCH_CONNECTIONS (default 50), BENCH_WARMUP (s, 1),
 * BENCH_PAIRS (default 3).
 * The machine is shared, so figures are indicative.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, fetchOk, load, RUN, row, settled } from './support/api-report.js';
import { BENCH_BOARD, seedBenchBoard, seedHotspot } from './support/api-seed.js';
import { type Child, startChild } from './support/child.js';
import { hotspotRuns } from './support/api-hotspot.js';
import { enginesRun } from './support/api-engines.js';
import { loadConfig } from '../src/config/load.js';

const { seconds: SECONDS, connections: CONNECTIONS, warmup: WARMUP } = RUN;
const log = (line = '') => process.stdout.write(`${line}\n`);
/** enough callers that the per-caller submission limit never trips during the runs */
const HOTSPOT = { products: 50, callers: 600 };

async function main(): Promise<void> {
  if (process.argv.includes('--engines')) {
    log(
      `bench:api --engines — ${SECONDS} s per run after ${WARMUP} s warm-up, ${CONNECTIONS} connections`,
    );
    return enginesRun(log);
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  const children: Child[] = [];
  try {
    log(
      `bench:api — ${SECONDS} s per run after ${WARMUP} s warm-up, ${CONNECTIONS} connections, ${RUN.pairs} alternating pairs per target`,
    );
    const config = loadConfig({ DATA_DIR: dir });
    const { token, itemKeys } = await seedBenchBoard(config);
    const { productKeys, callerTokens } = await seedHotspot(config, HOTSPOT);
    log(
      `seeded ${itemKeys.length} items, ${productKeys.length} more products and ${callerTokens.length} callers in ${dir}`,
    );

    const service = await startChild(
      'src/processes/all.ts',
      ['--dev'],
      {
        DATA_DIR: dir,
        FEEDBACK_PORT: '0',
        NOTES_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        // the hot spots measure throughput, not the public board's spam buckets
        CAPTURE_PERSON_BURST: '100000',
        CAPTURE_PERSON_PER_HOUR: '1000000',
        CAPTURE_PRODUCT_BURST: '1000000',
        CAPTURE_PRODUCT_PER_HOUR: '10000000',
      },
      /feedback: (http:\/\/\S+)/,
    );
    children.push(service.child);
    const settling = performance.now();
    await settled(service.match[1]!);
    log(
      `service settled in ${((performance.now() - settling) / 1000).toFixed(1)} s (read models caught up, seeded texts embedded)`,
    );
    const base = `${service.match[1]}/v1/workspaces/${BENCH_BOARD.slug}/products/${BENCH_BOARD.product}`;
    const headers = { authorization: `Bearer ${token}` };

    const listUrl = `${base}/items?pageSize=50`;
    const listed = (await fetchOk(listUrl, { headers })) as { items: unknown[] };
    if (listed.items.length !== BENCH_BOARD.items) {
      throw new Error(
        `list_items answered ${listed.items.length} items, expected ${BENCH_BOARD.items}`,
      );
    }
    const itemUrl = `${base}/items/${itemKeys[0]}`;
    await fetchOk(itemUrl, { headers });
    await fetchOk(`${itemUrl}/status`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'planned' }),
    });
    const capturedFile = join(dir, 'list-items.json');
    writeFileSync(capturedFile, JSON.stringify(listed));
    const boardUrl = `${service.match[1]}/${BENCH_BOARD.slug}/${BENCH_BOARD.product}`;
    const boardPage = await (await fetch(boardUrl)).text();
    const boardRows = (boardPage.match(/class="item"/g) ?? []).length;
    if (boardRows !== BENCH_BOARD.items) {
      throw new Error(`the board page showed ${boardRows} items, expected ${BENCH_BOARD.items}`);
    }
    const boardFile = join(dir, 'board.html');
    writeFileSync(boardFile, boardPage);

    const bare = await startChild(
      'bench/support/api-baseline.ts',
      [capturedFile, boardFile],
      {},
      /listening (\d+) (\d+)/,
    );
    children.push(bare.child);
    const bareUrl = `http://127.0.0.1:${bare.match[1]}`;
    const rawUrl = `http://127.0.0.1:${bare.match[2]}`;

    const results: string[] = [];
    const compared = async (
      names: [string, string],
      base: Parameters<typeof load>[0],
      measured: Parameters<typeof load>[0],
      target: number,
    ) => {
      const c = await compare(base, measured);
      results.push(row(names[0], c.base));
      results.push(row(names[1], c.measured, { base: c.base, target, pairs: c.ratios }));
      return c.measured;
    };
    await compared(
      ['bare Express, same 50-item JSON', 'list_items (50 items)'],
      { url: `${bareUrl}/items` },
      { url: listUrl, headers },
      1.0,
    );
    const getItem = await compared(
      ['bare Express, small JSON (GET)', 'get_item'],
      { url: `${bareUrl}/small` },
      { url: itemUrl, headers },
      0.8,
    );
    const status = await compared(
      ['bare Express, small JSON (POST)', 'update_item_status (durable)'],
      {
        url: `${bareUrl}/small`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'planned' }),
      },
      {
        url: `${base}/items/`,
        headers,
        alternate: { itemPaths: itemKeys.map((k) => `${k}/status`), statuses: ['planned', 'new'] },
      },
      0.7,
    );
    await compared(
      ['bare Express, same board page HTML', 'board page (50 items, anonymous)'],
      { url: `${bareUrl}/board` },
      { url: boardUrl },
      0.8,
    );
    const rawSmall = await load({ url: `${rawUrl}/small` });
    results.push(row('bare node:http, small JSON (GET)', rawSmall));
    results.push(row('get_item', getItem, { base: rawSmall }));
    const rawPost = await load({
      url: `${rawUrl}/small`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'planned' }),
    });
    results.push(row('bare node:http, small JSON (POST)', rawPost));
    results.push(row('update_item_status (durable)', status, { base: rawPost }));

    log();
    for (const line of results) log(line);
    log();
    log(
      `update_item_status: ${(status.changed ?? 0).toLocaleString('en-US')} of ` +
        `${status.requests.toLocaleString('en-US')} measured responses said changed: true ` +
        '(each an event appended durably before the answer)',
    );
    log();
    log(
      'hot spots (issue 17): writes concentrated on one stream beside the same writes spread out',
    );
    const hot = await hotspotRuns({
      origin: service.match[1]!,
      slug: BENCH_BOARD.slug,
      product: BENCH_BOARD.product,
      itemKeys,
      token,
      productKeys,
      callerTokens,
    });
    for (const line of hot) log(line);
    log();
    log('the machine is shared: figures are indicative');
  } finally {
    for (const child of children.reverse()) await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(`bench:api failed: ${error.message}`);
  process.exit(1);
});
