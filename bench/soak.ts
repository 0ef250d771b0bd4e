/**
 * `npm run soak` — memory under a steady mixed load (issue 10 item 18), all on 127.0.0.1:
 * seed the bench board, start the whole service in a child process, wait until it is idle and
 * its search embedder loaded (the idle figure), then drive 16 clients with a mixed load (reads,
 * searches, submissions, replies, status changes) for SOAK_MINUTES, sampling the service's own
 * /metrics (RSS and heap) every SOAK_SAMPLE_SECONDS. Prints the figures after warm-up and at the
 * end and checks: growth after warm-up < 10 %; idle RSS with the embedder loaded ≤ 350 MB.
 * Env: SOAK_MINUTES (default 10), SOAK_WARMUP_MINUTES (1), SOAK_CLIENTS (16),
 * SOAK_SAMPLE_SECONDS (30), SOAK_PAUSE_MS (think time per client between requests, 20),
 * SOAK_MIX (`steady`, the default: writes change existing items, so the growth target measures
 * what the process holds on to; `growing`: submissions and replies add documents, and RSS grows
 * with the data — see support/soak-load.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/load.js';
import { settled } from './support/api-report.js';
import { BENCH_BOARD, seedBenchBoard, seedHotspot } from './support/api-seed.js';
import { type Child, startChild } from './support/child.js';
import { memoryOf, mixedRequest, type SoakMix } from './support/soak-load.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const WARMUP_MINUTES = Number(process.env.SOAK_WARMUP_MINUTES ?? 1);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 16);
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30);
const PAUSE_MS = Number(process.env.SOAK_PAUSE_MS ?? 20);
const MIX: SoakMix = process.env.SOAK_MIX === 'growing' ? 'growing' : 'steady';
const MB = 1024 * 1024;
const log = (line = '') => process.stdout.write(`${line}\n`);
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`.padStart(7);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'soak-'));
  let service: Child | undefined;
  try {
    log(
      `soak — ${MINUTES} min of mixed load (${MIX}) by ${CLIENTS} clients after ${WARMUP_MINUTES} min warm-up`,
    );
    const config = loadConfig({ DATA_DIR: dir });
    const { token, itemKeys } = await seedBenchBoard(config);
    const { callerTokens } = await seedHotspot(config, { products: 1, callers: 200 });
    const started = await startChild(
      'src/processes/all.ts',
      ['--dev'],
      {
        DATA_DIR: dir,
        FEEDBACK_PORT: '0',
        NOTES_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        // the load's searches all come from one account: the per-caller budget would refuse them
        SEARCHES_PER_CALLER_BURST: '100000',
        SEARCHES_PER_CALLER_PER_HOUR: '10000000',
      },
      /feedback: (http:\/\/\S+)/,
    );
    service = started.child;
    const origin = started.match[1]!;
    await settled(origin);
    // the embedder loads on first use: one search, then let the process settle
    await mixedRequest({ origin, token, itemKeys, callerTokens, board: BENCH_BOARD }, 0);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const idle = await memoryOf(origin);
    log(`idle, embedder loaded: RSS ${mb(idle.rss)}, heap used ${mb(idle.heapUsed)}`);

    const stopAt = Date.now() + (WARMUP_MINUTES + MINUTES) * 60_000;
    const warmEndsAt = Date.now() + WARMUP_MINUTES * 60_000;
    const counts = { requests: 0, writes: 0, failures: 0 };
    const target = { origin, token, itemKeys, callerTokens, board: BENCH_BOARD };
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      for (let n = c; Date.now() < stopAt; n += CLIENTS) {
        const outcome = await mixedRequest(target, n, MIX);
        counts.requests++;
        if (outcome.write) counts.writes++;
        if (!outcome.ok) counts.failures++;
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
    });
    let afterWarmup: Awaited<ReturnType<typeof memoryOf>> | undefined;
    let last = idle;
    const sampler = (async () => {
      while (Date.now() < stopAt) {
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_SECONDS * 1000));
        last = await memoryOf(origin);
        const phase = Date.now() < warmEndsAt ? 'warm-up' : 'measured';
        if (!afterWarmup && phase === 'measured') afterWarmup = last;
        log(
          `${new Date().toISOString().slice(11, 19)} ${phase.padEnd(8)} RSS ${mb(last.rss)}, ` +
            `heap used ${mb(last.heapUsed)}; ${counts.requests} requests, ${counts.writes} writes, ` +
            `${counts.failures} failures`,
        );
      }
    })();
    await Promise.all([...clients, sampler]);
    const end = await memoryOf(origin);
    const base = afterWarmup ?? idle;
    const growth = (end.rss - base.rss) / base.rss;
    log();
    log(`after warm-up: RSS ${mb(base.rss)}, heap used ${mb(base.heapUsed)}`);
    log(`at the end:    RSS ${mb(end.rss)}, heap used ${mb(end.heapUsed)}`);
    log(
      `RSS growth after warm-up: ${(growth * 100).toFixed(1)} % (target < 10 %)  ${growth < 0.1 ? 'PASS' : 'FAIL'}`,
    );
    log(
      `idle RSS with the embedder loaded: ${mb(idle.rss)} (target ≤ 350 MB)  ${idle.rss <= 350 * MB ? 'PASS' : 'FAIL'}`,
    );
    log(`${counts.requests} requests (${counts.writes} writes), ${counts.failures} failures`);
  } finally {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(`soak failed: ${error.message}`);
  process.exit(1);
});
