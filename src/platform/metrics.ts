/**
 * The process's Prometheus metrics (prom-client), one registry per runtime (no module-level
 * default registry, so tests can run several runtimes in one process). Served at `/metrics` by
 * every service of the process (metrics-route.ts).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  /** one per answered request: service, operation (or `-`), method, status */
  readonly httpDuration: Histogram<'service' | 'operation' | 'method' | 'status'>;
  readonly appendDuration: Histogram<'adapter'>;
  readonly appendEvents: Histogram<'adapter'>;
  /** read-your-writes: how long a write's answer waited for its read models */
  readonly readYourWritesWait: Histogram;
  readonly readYourWritesTimeouts: Counter;
  /** MongoDB read store: clients replaced because the driver's server monitor wedged */
  readonly readStoreClientReplacements: Counter;
  /** tries to take or renew the projector lease that its store failed (not: held by another) */
  readonly projectorLeaseErrors: Counter;
  /** one per webhook delivery attempt sent: delivered (2xx), failed (to retry) or gone (410) */
  readonly webhookAttempts: Histogram<'outcome'>;
  /** a gauge read at scrape time, e.g. the embedder's queue or projector lag */
  observe(
    name: string,
    help: string,
    read: () => Promise<Record<string, number> | number> | Record<string, number> | number,
    label?: string,
  ): void;
}

const FAST = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registered = new Set<string>();
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'time from the request to the end of the answer, per operation and status',
      labelNames: ['service', 'operation', 'method', 'status'],
      buckets: FAST,
      registers: [registry],
    }),
    appendDuration: new Histogram({
      name: 'eventstore_append_duration_seconds',
      help: 'time an append to the event store takes until it is durable',
      labelNames: ['adapter'],
      buckets: FAST,
      registers: [registry],
    }),
    appendEvents: new Histogram({
      name: 'eventstore_append_events',
      help: 'events per append (a batch of commands on one stream is one append)',
      labelNames: ['adapter'],
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 1024],
      registers: [registry],
    }),
    readYourWritesWait: new Histogram({
      name: 'read_your_writes_wait_seconds',
      help: 'time a write waited for its read models before answering',
      buckets: FAST,
      registers: [registry],
    }),
    readYourWritesTimeouts: new Counter({
      name: 'read_your_writes_timeouts_total',
      help: "waits for the read models that ran out of PROJECTION_WAIT_MS: requests answered 503, and the webhook worker's (it tries again)",
      registers: [registry],
    }),
    readStoreClientReplacements: new Counter({
      name: 'readstore_client_replacements_total',
      help: "MongoDB clients replaced because the driver's server monitor stopped checking",
      registers: [registry],
    }),
    projectorLeaseErrors: new Counter({
      name: 'projector_lease_errors_total',
      help: 'tries to take or renew the projector lease that failed on an error of its store (MongoDB, the data file), not because another holds it',
      registers: [registry],
    }),
    webhookAttempts: new Histogram({
      name: 'webhook_delivery_attempt_duration_seconds',
      help: 'time a webhook delivery attempt took, per outcome: delivered, failed or gone (410)',
      labelNames: ['outcome'],
      // an attempt ends by 15 s (src/webhooks/delivery/schedule.ts ATTEMPT_TIMEOUT_MS)
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers: [registry],
    }),
    observe(name, help, read, label = 'name') {
      if (registered.has(name)) return;
      registered.add(name);
      new Gauge({
        name,
        help,
        labelNames: [label],
        registers: [registry],
        async collect() {
          const value = await read();
          this.reset();
          if (typeof value === 'number') this.set(value);
          else for (const [key, v] of Object.entries(value)) this.set({ [label]: key }, v);
        },
      });
    },
  };
}
