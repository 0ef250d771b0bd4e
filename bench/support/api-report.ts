/** What every bench:api section shares: one bounded autocannon run, readiness, the result rows. */
import type { LoadResult, LoadSpec } from './api-load.js';
import { runChild } from './child.js';
import { median } from './stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);

export const P99_TARGET_MS = 30;

export const RUN = { seconds: SECONDS, connections: CONNECTIONS, warmup: WARMUP, pairs: PAIRS };

export async function load(spec: Omit<LoadSpec, 'seconds' | 'connections' | 'warmupSeconds'>) {
  const full: LoadSpec = {
    ...spec,
    seconds: RUN.seconds,
    connections: RUN.connections,
    warmupSeconds: RUN.warmup,
  };
  const out = await runChild('bench/support/api-load.ts', [JSON.stringify(full)]);
  return JSON.parse(out.trim().split('\n').at(-1)!) as LoadResult;
}

/** An operation measured against its baseline in alternating pairs of runs. */
export interface Compared {
  base: LoadResult;
  measured: LoadResult;
  /** measured / base of each pair, in run order; their median is checked against the target */
  ratios: number[];
}

/**
 * Runs the baseline and the operation RUN.pairs times, alternating which goes first (A B, B A,
 * ...), so drift on a shared machine hits both; single pairs here swing by ±15 % or more, so
 * the median ratio of the pairs is reported. The rows show the runs' mean rate and median p99.
 */
export async function compare(
  base: Parameters<typeof load>[0],
  measured: Parameters<typeof load>[0],
): Promise<Compared> {
  const bases: LoadResult[] = [];
  const runs: LoadResult[] = [];
  for (let pair = 0; pair < RUN.pairs; pair++) {
    if (pair % 2 === 0) {
      bases.push(await load(base));
      runs.push(await load(measured));
    } else {
      runs.push(await load(measured));
      bases.push(await load(base));
    }
  }
  const ratios = runs.map((run, pair) => run.rps / bases[pair].rps);
  return { base: pooled(bases), measured: pooled(runs), ratios };
}

/** Several runs as one result: summed counts, mean rate, median latencies. */
function pooled(results: LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => results.reduce((a, r) => a + pick(r), 0);
  const changed = results.some((r) => r.changed !== undefined)
    ? sum((r) => r.changed ?? 0)
    : undefined;
  return {
    requests: sum((r) => r.requests),
    rps: sum((r) => r.rps) / results.length,
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    ...(changed === undefined ? {} : { changed }),
  };
}

export async function fetchOk(url: string, init: RequestInit): Promise<unknown> {
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
 * Measure a settled service: the projections caught up, the search model loaded and nothing left
 * to embed. The seeded items and callers (people) are embedded on the embedder's thread after
 * start; until the indexes' backlog is drained that thread takes the core the runs measure.
 */
export async function settled(origin: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${origin}/readyz`);
    const report = (await response.json()) as {
      projections?: { projectors?: { lag: string }[] };
      search?: { embedder?: { state?: string }; indexes?: Record<string, { pending: number }> };
    };
    const caughtUp = (report.projections?.projectors ?? []).every((p) => p.lag === '0');
    const embedder = report.search?.embedder?.state;
    const embedded = Object.values(report.search?.indexes ?? {}).every((i) => i.pending === 0);
    if (caughtUp && embedded && embedder !== 'loading' && embedder !== 'not-started') return;
    if (Date.now() > deadline) throw new Error('the service did not settle (see /readyz)');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export function row(
  name: string,
  r: LoadResult,
  vs?: { base: LoadResult; target?: number; pairs?: number[] },
): string {
  const cells = [
    name.padEnd(34),
    `${Math.round(r.rps).toLocaleString('en-US')} req/s`.padStart(14),
    `p99 ${r.p99} ms`.padStart(12),
  ];
  if (r.non2xx + r.errors > 0) cells.push(`(${r.non2xx} non-2xx, ${r.errors} errors)`);
  if (vs) {
    const ratio = vs.pairs ? median(vs.pairs) : r.rps / vs.base.rps;
    const clean = r.non2xx + r.errors === 0;
    if (vs.target === undefined) {
      cells.push(`${(ratio * 100).toFixed(1)} % of node:http`.padStart(36));
    } else {
      // every targeted operation also owes p99 ≤ 30 ms at 50 connections (issue 11)
      const pass = clean && ratio >= vs.target && r.p99 <= P99_TARGET_MS;
      cells.push(
        `${(ratio * 100).toFixed(1)} % of bare (target ≥ ${vs.target * 100} %, p99 ≤ ${P99_TARGET_MS} ms)`.padStart(
          50,
        ),
        pass ? 'PASS' : 'FAIL',
      );
      if (vs.pairs && vs.pairs.length > 1) {
        cells.push(`(the pairs: ${vs.pairs.map((p) => `${(p * 100).toFixed(0)}`).join(' / ')} %)`);
      }
    }
  }
  return cells.join('  ');
}
