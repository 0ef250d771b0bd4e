/**
 * One autocannon run, in its own process so the load generator never shares a CPU queue with
 * the server it measures. Usage: api-load.ts '<LoadSpec as JSON>'; prints the LoadResult JSON.
 *
 * `alternate` makes every request a real status change: each connection takes an item that no
 * other connection holds (released when its response arrives) and flips it between two
 * statuses, so no request is a no-op and no two requests race on one stream. Before the
 * measured run every item is set to the first status, so the flips start from a known state.
 */
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** POST {status} to `${url}/${path(item)}`: items' paths relative to url */
  alternate?: { itemPaths: string[]; statuses: [string, string] };
  /**
   * POST `body` (with `{n}` replaced by a request counter) to `${url}${paths[n % …]}`, as
   * `tokens[n % …]`: writes spread over (or concentrated on) the given paths and callers
   */
  rotate?: { paths: string[]; tokens: string[]; body: string };
  seconds: number;
  connections: number;
  warmupSeconds: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** alternate runs: responses that said `changed: true` (each one an appended event) */
  changed?: number;
}

function options(spec: LoadSpec, seconds: number, counted = { changed: 0 }): autocannon.Options {
  const base: autocannon.Options = {
    url: spec.url,
    connections: spec.connections,
    duration: seconds,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
  };
  if (spec.rotate) return rotating(base, spec, spec.rotate);
  const alternate = spec.alternate;
  if (!alternate) return base;
  const prefix = new URL(spec.url).pathname;
  const [first, second] = alternate.statuses;
  const current = new Map(alternate.itemPaths.map((p) => [p, first]));
  const free = [...alternate.itemPaths];
  let spill = 0;
  return {
    ...base,
    requests: [
      {
        method: 'POST',
        setupRequest: (request, context) => {
          // a response that never came (timeout) keeps its item: then share one round-robin
          const item = free.pop() ?? alternate.itemPaths[spill++ % alternate.itemPaths.length]!;
          const status = current.get(item) === first ? second : first;
          current.set(item, status);
          context.item = item;
          return {
            ...request,
            path: `${prefix}${item}`,
            method: 'POST',
            headers: { ...spec.headers, 'content-type': 'application/json' },
            body: JSON.stringify({ status }),
          };
        },
        onResponse: (_status, body, context) => {
          free.push(context.item as string);
          if (body.includes('"changed":true')) counted.changed++;
        },
      },
    ],
  };
}

function rotating(
  base: autocannon.Options,
  spec: LoadSpec,
  rotate: NonNullable<LoadSpec['rotate']>,
): autocannon.Options {
  const prefix = new URL(spec.url).pathname;
  let n = 0;
  return {
    ...base,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const i = n++;
          return {
            ...request,
            path: `${prefix}${rotate.paths[i % rotate.paths.length]}`,
            method: 'POST',
            headers: {
              authorization: `Bearer ${rotate.tokens[i % rotate.tokens.length]}`,
              'content-type': 'application/json',
            },
            body: rotate.body.replace('{n}', String(i)),
          };
        },
      },
    ],
  };
}

/** Put every item in the first status, so the measured flips start from a known state. */
async function resetItems(spec: LoadSpec): Promise<void> {
  const alternate = spec.alternate!;
  for (const item of alternate.itemPaths) {
    const response = await fetch(`${spec.url}${item}`, {
      method: 'POST',
      headers: { ...spec.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ status: alternate.statuses[0] }),
    });
    if (!response.ok) throw new Error(`resetting ${item} answered ${response.status}`);
  }
}

async function run(spec: LoadSpec): Promise<LoadResult> {
  if (spec.warmupSeconds > 0) await autocannon(options(spec, spec.warmupSeconds));
  if (spec.alternate) await resetItems(spec);
  const counted = { changed: 0 };
  const result = await autocannon(options(spec, spec.seconds, counted));
  return {
    ...(spec.alternate ? { changed: counted.changed } : {}),
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const spec = JSON.parse(process.argv[2]!) as LoadSpec;
process.stdout.write(`${JSON.stringify(await run(spec))}\n`);
