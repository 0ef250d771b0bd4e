/**
 * `npm run bench:history` — get_item_as_of on an item with 1,000 events (issue 15: "answers in
 * < 20 ms on this machine (snapshots or caching allowed; say which)").
 *
 * One process: the feedback service in-process over a temp DATA_DIR (embedded stores) and a
 * client asking over HTTP on 127.0.0.1, one request at a time (latency, not throughput). The
 * item: captured, then 1,000 more events — +1s from 300 different people, 300 replies, 200
 * status changes, 100 tag changes, 99 edits — so rebuilding it means replaying the items,
 * replies and people projectors over its stream plus 300 people's streams.
 *
 * What is measured, in the same run:
 *   - baseline: get_item of the same item (its current state, from the read models);
 *   - as-of by revision, cold: the first question about the item in this process (the timeline
 *     is built: the stream and its people's streams are read and replayed once, snapshots taken);
 *   - as-of by revision, warm: random revisions afterwards (a snapshot every 64 revisions, so at
 *     most 63 events replayed) — the figure the target is about;
 *   - as-of by time, warm; and a 200-change page of history.
 * Env: BENCH_ASOF_REQUESTS (default 300). Figures on a shared machine are indicative.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/load.js';
import { createFeedbackService } from '../src/feedback/service.js';
import { silentLogger } from '../src/platform/logger.js';
import { startRuntime } from '../src/platform/runtime.js';
import { seedLongItem } from './support/history-seed.js';

const REQUESTS = Number(process.env.BENCH_ASOF_REQUESTS ?? 300);
const TARGET_MS = 20;
const log = (line = '') => process.stdout.write(`${line}\n`);

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1)! };
}
const ms = (n: number) => `${n.toFixed(2)} ms`;
const line = (name: string, s: ReturnType<typeof stats>) =>
  `${name.padEnd(34)} p50 ${ms(s.p50).padStart(9)}  p95 ${ms(s.p95).padStart(9)}  p99 ${ms(s.p99).padStart(9)}  max ${ms(s.max).padStart(9)}`;

async function timed(url: string, token: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return elapsed;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-history-'));
const runtime = await startRuntime({
  config: loadConfig({ DATA_DIR: dir, FEEDBACK_PORT: '0', LOG_LEVEL: 'error', DEV_MODE: 'true' }),
  role: 'all',
  services: [createFeedbackService()],
  logger: silentLogger,
});
try {
  const seedStarted = performance.now();
  const seeded = await seedLongItem(runtime);
  log(
    `seeded ${seeded.events} events on ${seeded.itemKey} (${seeded.people} people) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );
  const base = `${runtime.urls.get('feedback')}${seeded.path}`;
  const random = () => Math.floor(Math.random() * seeded.events);

  for (let i = 0; i < 20; i++) await timed(base, seeded.token); // warm the HTTP path
  const getItem: number[] = [];
  for (let i = 0; i < REQUESTS; i++) getItem.push(await timed(base, seeded.token));
  const cold = await timed(`${base}/as-of?revision=${random()}`, seeded.token);
  const warm: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    warm.push(await timed(`${base}/as-of?revision=${random()}`, seeded.token));
  }
  const byTime: number[] = [];
  for (let i = 0; i < REQUESTS / 3; i++) {
    const at = seeded.startedAt + Math.floor(Math.random() * (seeded.endedAt - seeded.startedAt));
    byTime.push(await timed(`${base}/as-of?at=${at}`, seeded.token));
  }
  const history: number[] = [];
  for (let i = 0; i < 20; i++)
    history.push(await timed(`${base}/history?pageSize=200`, seeded.token));

  log(`== ${REQUESTS} sequential requests each, 127.0.0.1, same process ==`);
  const baseline = stats(getItem);
  const asOf = stats(warm);
  log(line('get_item (baseline)', baseline));
  log(`${'get_item_as_of, cold (first ask)'.padEnd(34)} ${ms(cold)}`);
  log(line('get_item_as_of ?revision, warm', asOf));
  log(line('get_item_as_of ?at, warm', stats(byTime)));
  log(line('get_item_history, 200 changes', stats(history)));
  log(`as-of p50 / get_item p50: ${(asOf.p50 / baseline.p50).toFixed(1)}x`);
  log(
    `target: get_item_as_of on a 1,000-event item < ${TARGET_MS} ms (p95, snapshots every 64 revisions) -> ${asOf.p95 < TARGET_MS ? 'MET' : 'MISSED'}`,
  );
} finally {
  await runtime.stop();
  rmSync(dir, { recursive: true, force: true });
}
