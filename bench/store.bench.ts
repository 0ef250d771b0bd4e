/**
 * `npm run bench:store` — the embedded event store against the raw disk, in one run:
 *   1. raw baselines: fixed-size JSON lines + fdatasync, 1 writer and 100 grouped writers (as
 *      the issue's target defines it, and with full groups — the stricter comparison);
 *   2. the store: appends/s with 1 and 100 concurrent writers, and the cost of the hash chain
 *      (100 writers with and without it, alternating pairs of runs);
 *   3. with 1M events: rebuild of a trivial projector vs raw read + JSON.parse, and boot time +
 *      RSS of a process opening store + read store vs a raw replay.
 * Env: BENCH_SECONDS (per append phase, default 5), BENCH_EVENTS (default 1000000),
 * BENCH_GENERATE_SECONDS (bound on generating them, default 240), BENCH_SKIP_1M=1,
 * BENCH_CHAIN_ROUNDS and BENCH_CHAIN_SECONDS (pairs of chain runs, default 30 of 2 s).
 * Figures on a shared machine are indicative.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { chainHash, GENESIS } from '../src/eventstore/embedded/chain.js';
import { openEmbeddedEventStore } from '../src/eventstore/embedded/index.js';
import { rawGroupCommit, rawSingleWriter } from './support/raw-append.js';
import { generate, rawReadParse, rebuildThroughEngine } from './support/rebuild.js';
import { benchEvent, storeAppends } from './support/store-append.js';
import { median } from './support/stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const GENERATE_SECONDS = Number(process.env.BENCH_GENERATE_SECONDS ?? 240);
const WRITERS = 100;
const PADDING = 'x'.repeat(120);

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const verdict = (ok: boolean) => (ok ? 'MET' : 'MISSED');
const log = (line = '') => process.stdout.write(`${line}\n`);

async function appendPhases(dir: string): Promise<void> {
  const line = `${JSON.stringify(benchEvent('ItemVoted', 1, PADDING))}\n`;
  log(`== appends (${SECONDS} s per phase, ${line.length}-byte events) ==`);
  const raw1 = rawSingleWriter(dir, line, SECONDS);
  log(`raw file, 1 writer, write+fdatasync each:        ${fmt(raw1.perSecond)} appends/s`);
  const rawGroup = await rawGroupCommit(dir, line, WRITERS, SECONDS);
  log(
    `raw file, ${WRITERS} writers, grouped write+fdatasync:  ${fmt(rawGroup.perSecond)} appends/s`,
  );
  const rawFull = await rawGroupCommit(dir, line, WRITERS, SECONDS, true);
  log(
    `raw file, ${WRITERS} writers, same with full groups:   ${fmt(rawFull.perSecond)} appends/s (next group one event-loop turn after the sync, as the store does)`,
  );
  const store1 = await storeAppends(dir, 1, SECONDS, PADDING);
  log(
    `embedded store, 1 writer:                        ${fmt(store1.perSecond)} appends/s (${pct(store1.perSecond, raw1.perSecond)} of raw 1 writer)`,
  );
  const store100 = await storeAppends(dir, WRITERS, SECONDS, PADDING);
  const ratio = store100.perSecond / rawGroup.perSecond;
  log(
    `embedded store, ${WRITERS} writers:                     ${fmt(store100.perSecond)} appends/s (${pct(store100.perSecond, rawGroup.perSecond)} of raw group commit, ${pct(store100.perSecond, rawFull.perSecond)} of raw with full groups)`,
  );
  log(`target: ${WRITERS} writers >= 50 % of raw group-commit rate -> ${verdict(ratio >= 0.5)}`);
  await chainCost(dir);
}

/**
 * What the hash chain costs (issue 15: "100-writer append rate drops < 5 %"): the store with and
 * without the chain in alternating pairs (A B, B A, ...), so drift on a shared machine hits both;
 * one pair's runs are seconds apart, so the drop is taken per pair and the median reported (on
 * this shared machine single pairs range from -34 % to +26 %: many short pairs beat a few long
 * ones, and with 12 pairs the median moved by several points from run to run, hence 30).
 * Env: BENCH_CHAIN_ROUNDS (pairs, default 30), BENCH_CHAIN_SECONDS (per run, default 2).
 */
async function chainCost(dir: string): Promise<void> {
  const rounds = Number(process.env.BENCH_CHAIN_ROUNDS ?? 30);
  const seconds = Number(process.env.BENCH_CHAIN_SECONDS ?? 2);
  const drops: number[] = [];
  let chained = 0;
  let plain = 0;
  for (let round = 0; round < rounds; round++) {
    const run = (chain: boolean) =>
      storeAppends(dir, WRITERS, seconds, PADDING, { chain }).then((rate) => rate.perSecond);
    let without: number;
    let withChain: number;
    if (round % 2 === 0) {
      without = await run(false);
      withChain = await run(true);
    } else {
      withChain = await run(true);
      without = await run(false);
    }
    plain += without;
    chained += withChain;
    drops.push(1 - withChain / without);
  }
  const drop = median(drops);
  log(
    `hash chain, ${WRITERS} writers: ${fmt(chained / rounds)} appends/s chained vs ${fmt(plain / rounds)} without (${rounds} alternating pairs)`,
  );
  log(
    `  drop per pair: ${drops.map((d) => `${(100 * d).toFixed(1)} %`).join(', ')}; median ${(100 * drop).toFixed(1)} %, of the sums ${(100 * (1 - chained / plain)).toFixed(1)} %`,
  );
  log(`target: hash chain drops the ${WRITERS}-writer rate < 5 % -> ${verdict(drop < 0.05)}`);
  // What the writer does for the chain, measured alone: the hashing (after the acknowledgement,
  // outside the commit every append waits for, chain-writer.ts) at the chained rate.
  const perEvent = hashMicros();
  log(
    `hash chain work: ${perEvent.toFixed(2)} µs per event = ${((100 * perEvent * (chained / rounds)) / 1e6).toFixed(2)} % of the writer thread at the chained rate, done between commits`,
  );
}

function hashMicros(): number {
  const event = benchEvent('ItemVoted', 1, PADDING);
  const row = {
    streamId: 'item-42',
    revision: 7,
    eventId: randomUUID(),
    type: event.type,
    data: JSON.stringify(event.data),
    metadata: JSON.stringify(event.metadata),
  };
  const count = 50_000;
  let previous = GENESIS;
  const started = performance.now();
  for (let i = 0; i < count; i++) previous = chainHash(previous, row);
  return ((performance.now() - started) * 1000) / count;
}

/** Runs bench/support/boot-child.ts and returns its report plus the wall time seen from here. */
async function bootChild(mode: 'store' | 'store-nocheck' | 'raw', path: string) {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve('bench/support/boot-child.ts'), mode, path],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  await new Promise((done) => child.on('exit', done));
  const report = JSON.parse(out.trim().split('\n')[0]) as {
    ms: number;
    rss: number;
    maxRss: number;
  };
  return { ...report, wallMs: performance.now() - started };
}

async function millionPhases(dir: string): Promise<void> {
  const path = join(dir, 'million.db');
  log();
  log(`== ${fmt(EVENTS)} events ==`);
  const generated = await generate(path, EVENTS, GENERATE_SECONDS, PADDING);
  log(
    `generated ${fmt(generated.events)} events in ${generated.seconds.toFixed(1)} s through the port (${fmt(generated.events / generated.seconds)} events/s, batches of 1000), file ${mb(statSync(path).size)}`,
  );
  if (generated.events < EVENTS)
    log(
      `(generation hit its ${GENERATE_SECONDS} s bound; figures below are for ${fmt(generated.events)} events)`,
    );

  for (const check of ['quick', 'none'] as const) {
    const started = performance.now();
    const store = await openEmbeddedEventStore({ path, integrityCheck: check });
    log(`open with integrityCheck=${check}: ${fmt(performance.now() - started)} ms`);
    await store.close();
  }

  const raw = rawReadParse(path);
  const rawRate = raw.events / raw.seconds;
  log(`raw read + JSON.parse:        ${fmt(rawRate)} events/s (${raw.seconds.toFixed(2)} s)`);
  const rebuilt = await rebuildThroughEngine(path);
  const rebuildRate = rebuilt.events / rebuilt.seconds;
  log(
    `rebuild through the engine:   ${fmt(rebuildRate)} events/s (${rebuilt.seconds.toFixed(2)} s), ${pct(rebuildRate, rawRate)} of raw`,
  );
  const agree = countsAgree(raw.counts, rebuilt.counts);
  log(`projected counts equal raw counts: ${agree}`);
  log(`target: rebuild >= 50 % of raw read+parse -> ${verdict(rebuildRate >= 0.5 * rawRate)}`);

  const rawBoot = await bootChild('raw', path);
  const storeBoot = await bootChild('store', path);
  const fastBoot = await bootChild('store-nocheck', path);
  const line = (name: string, r: typeof rawBoot) =>
    log(
      `${name} ${fmt(r.ms)} ms since process start (${fmt(r.wallMs)} ms wall incl. spawn), RSS ${mb(r.rss)}, peak ${mb(r.maxRss)}`,
    );
  line('boot, raw replay:                     ', rawBoot);
  line('boot, store + read store (quick_check):', storeBoot);
  line('boot, store + read store (no check):  ', fastBoot);
  log(
    `boot / raw replay: ${(storeBoot.ms / rawBoot.ms).toFixed(2)}x with quick_check, ${(fastBoot.ms / rawBoot.ms).toFixed(2)}x without`,
  );
  log(
    `target: boot <= 2x raw replay -> ${verdict(storeBoot.ms <= 2 * rawBoot.ms)} (quick_check), ${verdict(fastBoot.ms <= 2 * rawBoot.ms)} (no check)`,
  );
  log(
    `target: RSS <= 400 MB -> ${verdict(storeBoot.maxRss <= 400 * 1024 * 1024)} (peak ${mb(storeBoot.maxRss)})`,
  );
}

function countsAgree(raw: Record<string, number>, projected: Record<string, unknown>): boolean {
  return Object.entries(raw).every(([type, count]) => projected[type] === count);
}

const dir = mkdtempSync(join(tmpdir(), 'bench-store-'));
try {
  await appendPhases(dir);
  if (process.env.BENCH_SKIP_1M === '1') log('\n(1M-event phases skipped: BENCH_SKIP_1M=1)');
  else await millionPhases(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
