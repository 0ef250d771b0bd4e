/**
 * `npm run bench:webhooks` — outbound webhook delivery against a bare loop, in one run, all on
 * 127.0.0.1 (the receivers answer 204 from a process of their own):
 *   1. baseline: a bare loop of Standard-Webhooks-signed POSTs of a real message body to one
 *      receiver, with as many in flight as the service allows per webhook (WEBHOOK_CONCURRENCY)
 *      — the limit of what one webhook can get;
 *   2. the service (the real runtime, embedded stores in a temp DATA_DIR): messages delivered
 *      per second to 1 receiver and to 20 receivers, from the first write until the last
 *      message arrived (writes go straight through the command handler, faster than delivery);
 *   3. write-answer → receipt latency at a steady 200 writes/s over HTTP (tag_item), p50/p99.
 * Targets (issue 18): delivery ≥ 50 % of the bare loop's rate; p99 ≤ 100 ms at 200 writes/s.
 * Env: BENCH_MESSAGES (per throughput run, default 2000), BENCH_SECONDS (latency run, default
 * 10), BENCH_SMOKE=1 (a short run that only shows it works). The machine is shared: figures are
 * indicative; the lead takes the final ones.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import * as actions from '../src/feedback/actions/index.js';
import { loadConfig } from '../src/config/load.js';
import { newSigningSecret } from '../src/webhooks/secrets.js';
import { type Receivers, startReceivers } from './support/webhook-receivers-client.js';
import {
  call,
  ITEMS,
  type Service,
  startService,
  subscribe,
  unsubscribe,
} from './support/webhook-service.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? (SMOKE ? 200 : 2000));
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 2 : 10));
const RATE = 200;
const RECEIVERS = 20;
const WRITERS = 10;
const log = (line = '') => process.stdout.write(`${line}\n`);
const now = () => performance.timeOrigin + performance.now();

/** 1. The bare loop: sign and POST, `inFlight` at a time, over keep-alive connections. */
async function bareLoop(port: number, body: string, total: number, inFlight: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight });
  const signer = new Webhook(newSigningSecret());
  let next = 0;
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const id = `msg_bench${next++}`;
      const sentAt = new Date();
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/hooks',
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'webhook-id': id,
            'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
            'webhook-signature': signer.sign(id, sentAt, body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const run = async (until: number) =>
    Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < until) await post();
      }),
    );
  // warm up (connections, JIT) untimed, as the service's runs are warm by then too
  await run(Math.min(200, Math.ceil(total / 10)));
  const from = next;
  const started = now();
  await run(from + total);
  agent.destroy();
  return total / ((now() - started) / 1000);
}

/**
 * 2. With the worker stopped, write `total` tags; then start it and time until every message
 * arrived: delivery alone (fan-out, composing, signing, sending), not the write path.
 */
async function throughput(
  service: Service,
  receivers: Receivers,
  ports: number[],
  total: number,
  tag: string,
): Promise<number> {
  const before = ports.map((p) => receivers.count(p));
  const context = () => ({ actor: 'bench', now: Date.now() });
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      for (;;) {
        const n = next++;
        if (n >= total) return;
        const itemKey = service.items[(writer + n * WRITERS) % ITEMS]!;
        await actions.tagItem(service.deps, context(), {
          workspaceId: service.workspaceId,
          productKey: 'APP',
          itemKey,
          tagIds: [`${tag}${n}`],
        });
      }
    }),
  );
  await service.runtime.context.waitFor(await service.runtime.stores.eventStore.headPosition());
  const started = now();
  const worker = await service.startWorker();
  await receivers.until(
    () => ports.every((p, i) => receivers.count(p) - before[i]! >= total),
    `${total} messages at ${ports.length} receiver(s)`,
  );
  const seconds = (now() - started) / 1000;
  await worker.stop();
  return (total * ports.length) / seconds;
}

/** 3. Steady writes over HTTP; each answer's time against its message's arrival. */
async function latency(service: Service, receivers: Receivers, seconds: number) {
  const total = RATE * seconds;
  const answered = new Map<string, number>();
  const sent = new Map<string, number>();
  const pending: Promise<void>[] = [];
  const started = now();
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / RATE;
    const wait = due - now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const marker = `l${n}`;
    const itemKey = service.items[n % ITEMS]!;
    sent.set(marker, now());
    pending.push(
      call(service, 'POST', `/v1/workspaces/bench-hooks/products/APP/items/${itemKey}/tags`, {
        tagIds: [marker],
      }).then(() => {
        answered.set(marker, now());
      }),
    );
  }
  await Promise.all(pending);
  await receivers.until(
    () => [...answered.keys()].every((m) => receivers.receivedAt.has(m)),
    'every latency message',
  );
  // a message often arrives before its write's answer (the worker runs beside the projections
  // the answer waits for): that counts as 0; the time from the request is printed beside it
  const afterAnswer = [...answered].map(([m, at]) =>
    Math.max(0, receivers.receivedAt.get(m)! - at),
  );
  const afterRequest = [...sent].map(([m, at]) => receivers.receivedAt.get(m)! - at);
  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  };
  const early = afterAnswer.filter((ms) => ms === 0).length;
  return {
    p50: pct(afterAnswer, 50),
    p99: pct(afterAnswer, 99),
    fromRequest: { p50: pct(afterRequest, 50), p99: pct(afterRequest, 99) },
    early,
    count: afterAnswer.length,
  };
}

function verdict(ok: boolean): string {
  return ok ? 'meets target' : 'BELOW TARGET';
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  const receivers = await startReceivers(RECEIVERS);
  let service: Service | undefined;
  try {
    const concurrency = loadConfig({}).WEBHOOK_CONCURRENCY;
    log(
      `bench:webhooks — ${MESSAGES} messages per throughput run, ${SECONDS} s at ${RATE} writes/s${SMOKE ? ' (smoke run)' : ''}`,
    );
    service = await startService(dir);
    // a real message body for the bare loop, as the service sends it
    const first = await subscribe(service, [receivers.ports[0]!]);
    await actions.tagItem(
      service.deps,
      { actor: 'bench', now: Date.now() },
      {
        workspaceId: service.workspaceId,
        productKey: 'APP',
        itemKey: service.items[0]!,
        tagIds: ['sample'],
      },
    );
    const feed = await call(
      service,
      'GET',
      '/v1/workspaces/bench-hooks/events?types=item.tagged&pageSize=1',
    );
    const body = JSON.stringify(feed.items[0]);
    const warmup = await service.startWorker();
    await receivers.until(() => receivers.receivedAt.has('sample'), 'the sample message');
    await warmup.stop();

    const bare = await bareLoop(receivers.ports[1]!, body, MESSAGES, concurrency);
    log(
      `  bare loop, 1 receiver, ${concurrency} in flight      ${Math.round(bare).toLocaleString('en-US').padStart(8)} msg/s  (the limit, ${body.length} B bodies)`,
    );

    const one = await throughput(service, receivers, [receivers.ports[0]!], MESSAGES, 'a');
    const oneRatio = one / bare;
    log(
      `  service, 1 receiver                   ${Math.round(one).toLocaleString('en-US').padStart(8)} msg/s  ${(oneRatio * 100).toFixed(0)} % of bare  ${verdict(oneRatio >= 0.5)} (≥ 50 %)`,
    );
    await unsubscribe(service, first);

    const many = await subscribe(service, receivers.ports.slice(0, RECEIVERS));
    const perReceiver = Math.max(1, Math.round(MESSAGES / 4));
    const twenty = await throughput(
      service,
      receivers,
      receivers.ports.slice(0, RECEIVERS),
      perReceiver,
      'b',
    );
    const twentyRatio = twenty / bare;
    log(
      `  service, ${RECEIVERS} receivers (${perReceiver} each)     ${Math.round(twenty).toLocaleString('en-US').padStart(8)} msg/s  ${(twentyRatio * 100).toFixed(0)} % of bare  ${verdict(twentyRatio >= 0.5)} (≥ 50 %)`,
    );
    await unsubscribe(service, many);

    await subscribe(service, [receivers.ports[0]!]);
    const worker = await service.startWorker();
    const steady = await latency(service, receivers, SECONDS);
    await worker.stop();
    log(
      `  write answer → receipt at ${RATE} writes/s  p50 ${steady.p50.toFixed(1)} ms  p99 ${steady.p99.toFixed(1)} ms  ${verdict(steady.p99 <= 100)} (p99 ≤ 100 ms)  [${steady.count} messages, ${steady.early} before the answer]`,
    );
    log(
      `  write request → receipt at ${RATE} writes/s p50 ${steady.fromRequest.p50.toFixed(1)} ms  p99 ${steady.fromRequest.p99.toFixed(1)} ms  (the write itself included)`,
    );
  } finally {
    await service?.runtime.stop().catch(() => {});
    await receivers.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
