/**
 * `npm run bench:api` — the feedback API against bare Express, in one run, all on 127.0.0.1:
 *   1. seed a temp DATA_DIR through the actions (workspace, product, 50 items, a personal token);
 *   2. start the whole service (`src/main.ts`) in a child process over it, and capture the
 *      list_items answer (50 items);
 *   3. start bare Express in ANOTHER process: the same 50-item JSON, and a small JSON;
 *   4. drive each with autocannon from a third process, bounded in time.
 * Targets (issue 3): list_items ≥ 80 % of bare 50-item JSON; get_item ≥ 75 % of bare small
 * JSON; update_item_status (durable: every request changes a status) ≥ 70 % of bare small JSON.
 * The service answers its operations before Express ever sees them (src/http/dispatch.ts), so
 * the small requests are also put beside bare node:http, with no target: that ratio is the
 * service's real cost over the transport.
 * Env: BENCH_SECONDS (per run, default 5), BENCH_CONNECTIONS (default 50), BENCH_WARMUP (s, 1).
 * The machine is shared, so figures are indicative.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult, LoadSpec } from './support/api-load.js';
import { BENCH_BOARD, seedBenchBoard } from './support/api-seed.js';
import { type Child, runChild, startChild } from './support/child.js';
import { loadConfig } from '../src/config/load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const log = (line = '') => process.stdout.write(`${line}\n`);

async function load(spec: Omit<LoadSpec, 'seconds' | 'connections' | 'warmupSeconds'>) {
  const full: LoadSpec = {
    ...spec,
    seconds: SECONDS,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP,
  };
  const out = await runChild('bench/support/api-load.ts', [JSON.stringify(full)]);
  return JSON.parse(out.trim().split('\n').at(-1)!) as LoadResult;
}

async function fetchOk(url: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) {
    throw new Error(
      `${init.method ?? 'GET'} ${url} answered ${response.status}: ${text.slice(0, 300)}`,
    );
  }
  return JSON.parse(text);
}

/**
 * Measure a settled service: the projections caught up and the search model loaded (it loads on
 * the main thread at start, and would otherwise compete with the first runs).
 */
async function settled(origin: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${origin}/readyz`);
    const report = (await response.json()) as {
      projections?: { projectors?: { lag: string }[] };
      embedder?: { state?: string };
    };
    const caughtUp = (report.projections?.projectors ?? []).every((p) => p.lag === '0');
    const embedder = report.embedder?.state;
    if (caughtUp && embedder !== 'loading' && embedder !== 'not-started') return;
    if (Date.now() > deadline) throw new Error('the service did not settle (see /readyz)');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function row(name: string, r: LoadResult, vs?: { base: LoadResult; target?: number }): string {
  const cells = [
    name.padEnd(34),
    `${Math.round(r.rps).toLocaleString('en-US')} req/s`.padStart(14),
    `p99 ${r.p99} ms`.padStart(12),
  ];
  if (r.non2xx + r.errors > 0) cells.push(`(${r.non2xx} non-2xx, ${r.errors} errors)`);
  if (vs) {
    const ratio = r.rps / vs.base.rps;
    const clean = r.non2xx + r.errors === 0;
    if (vs.target === undefined) {
      cells.push(`${(ratio * 100).toFixed(1)} % of node:http`.padStart(36));
    } else {
      const pass = clean && ratio >= vs.target;
      cells.push(
        `${(ratio * 100).toFixed(1)} % of bare (target ≥ ${vs.target * 100} %)`.padStart(36),
        pass ? 'PASS' : 'FAIL',
      );
    }
  }
  return cells.join('  ');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  const children: Child[] = [];
  try {
    log(`bench:api — ${SECONDS} s per run after ${WARMUP} s warm-up, ${CONNECTIONS} connections`);
    const config = loadConfig({ DATA_DIR: dir });
    const { token, itemKeys } = await seedBenchBoard(config);
    log(`seeded ${itemKeys.length} items in ${dir}`);

    const service = await startChild(
      'src/main.ts',
      [],
      { DATA_DIR: dir, FEEDBACK_PORT: '0', NOTES_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      /feedback: (http:\/\/\S+)/,
    );
    children.push(service.child);
    await settled(service.match[1]!);
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

    const bare = await startChild(
      'bench/support/api-baseline.ts',
      [capturedFile],
      {},
      /listening (\d+) (\d+)/,
    );
    children.push(bare.child);
    const bareUrl = `http://127.0.0.1:${bare.match[1]}`;
    const rawUrl = `http://127.0.0.1:${bare.match[2]}`;

    const results: string[] = [];
    const bareList = await load({ url: `${bareUrl}/items` });
    results.push(row('bare Express, same 50-item JSON', bareList));
    const list = await load({ url: listUrl, headers });
    results.push(row('list_items (50 items)', list, { base: bareList, target: 0.8 }));
    const bareSmall = await load({ url: `${bareUrl}/small` });
    results.push(row('bare Express, small JSON (GET)', bareSmall));
    const getItem = await load({ url: itemUrl, headers });
    results.push(row('get_item', getItem, { base: bareSmall, target: 0.75 }));
    const barePost = await load({
      url: `${bareUrl}/small`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'planned' }),
    });
    results.push(row('bare Express, small JSON (POST)', barePost));
    const status = await load({
      url: `${base}/items/`,
      headers,
      alternate: { itemPaths: itemKeys.map((k) => `${k}/status`), statuses: ['planned', 'new'] },
    });
    results.push(row('update_item_status (durable)', status, { base: barePost, target: 0.7 }));
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
