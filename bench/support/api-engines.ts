/**
 * `npm run bench:api -- --engines` (issue 13 item 3): the latency of a durable write with
 * read-your-writes on the production shape — an API process (`start:api`) and a projector
 * (`start:projector`) over EVENTSTORE_URL and MONGODB_URL, the API waiting on the projector's
 * checkpoints — beside the same write on the embedded default (one process), in one run.
 * update_item_status, every request changing a status; p50 and p99.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { load, row, settled } from './api-report.js';
import { BENCH_BOARD, seedBenchBoard } from './api-seed.js';
import { type Child, startChild } from './child.js';

/** what all.ts and api.ts print once they listen */
const LISTENING = /feedback: (http:\/\/\S+)/;

interface Shape {
  name: string;
  env: Record<string, string>;
  /** the processes: the first one serves HTTP */
  scripts: string[];
}

async function measure(shape: Shape, log: (line: string) => void): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-engines-'));
  const children: Child[] = [];
  const slug = `bench-${randomUUID().slice(0, 8)}`;
  const env = {
    DATA_DIR: dir,
    FEEDBACK_PORT: '0',
    NOTES_PORT: '0',
    HOST: '127.0.0.1',
    // no access line per request: warn
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    DEV_MODE: 'true',
    // every process of a split deployment signs and seals with the same secret
    APP_SECRET: 'a-test-secret-shared-by-every-process-0123456789',
    ...shape.env,
  };
  try {
    const { token, itemKeys } = await seedBenchBoard(loadConfig(env), slug);
    const [api, ...workers] = shape.scripts;
    for (const script of workers) {
      // a worker serves no HTTP: info costs nothing and says when it started
      const worker = await startChild(script, [], { ...env, LOG_LEVEL: 'info' }, /"msg":"started"/);
      children.push(worker.child);
    }
    const served = await startChild(api!, [], env, LISTENING);
    children.push(served.child);
    const origin = served.match[1]!;
    if (shape.scripts.length === 1) await settled(origin);
    const base = `${origin}/v1/workspaces/${slug}/products/${BENCH_BOARD.product}`;
    const result = await load({
      url: `${base}/items/`,
      headers: { authorization: `Bearer ${token}` },
      alternate: { itemPaths: itemKeys.map((k) => `${k}/status`), statuses: ['planned', 'new'] },
    });
    log(`${shape.name}: p50 ${result.p50} ms, p99 ${result.p99} ms`);
    return row(`update_item_status, ${shape.name}`, result);
  } finally {
    for (const child of children.reverse()) await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function enginesRun(log: (line?: string) => void): Promise<void> {
  const { EVENTSTORE_URL, MONGODB_URL } = process.env;
  if (!EVENTSTORE_URL || !MONGODB_URL) {
    throw new Error(
      '--engines needs EVENTSTORE_URL and MONGODB_URL (../shared/engines starts stand-ins)',
    );
  }
  // children inherit this process's environment: only the engines shape gets the URLs
  delete process.env.EVENTSTORE_URL;
  delete process.env.MONGODB_URL;
  const database = `bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const rows = [
    await measure(
      { name: 'embedded (one process)', env: {}, scripts: ['src/processes/all.ts'] },
      log,
    ),
    await measure(
      {
        name: 'api + projector',
        env: { EVENTSTORE_URL, MONGODB_URL, MONGODB_DATABASE: database },
        scripts: ['src/processes/api.ts', 'src/processes/projector.ts'],
      },
      log,
    ),
  ];
  log();
  for (const line of rows) log(line);
  log();
  log('the engines are stand-ins (../shared/engines): figures show the shape, not real servers');
}
