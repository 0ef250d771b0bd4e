/**
 * bench:webhooks' service: the real feedback runtime over a temp DATA_DIR, seeded with a
 * workspace, 50 items and a token, its webhook worker started and stopped by the bench.
 */
import * as actions from '../../src/feedback/actions/index.js';
import { createFeedbackService } from '../../src/feedback/service.js';
import { loadConfig } from '../../src/config/load.js';
import { idKeyFor } from '../../src/platform/id-keys.js';
import { createLogger, silentLogger } from '../../src/platform/logger.js';
import { type Runtime, startRuntime } from '../../src/platform/runtime.js';
import type { ServiceContext, ServiceModule } from '../../src/platform/service.js';
import { TIME_CAP_MS } from './webhook-receivers-client.js';

export const ITEMS = 50;

/**
 * The feedback service with its webhook worker started and stopped by the bench, so a
 * throughput run can lay down its writes first and then time delivery alone.
 */
function pausableFeedback() {
  const inner = createFeedbackService();
  let context: ServiceContext | undefined;
  let start: ((ctx: ServiceContext) => Promise<{ stop(): Promise<void> }>) | undefined;
  const module: ServiceModule = {
    ...inner,
    boot(env) {
      const instance = inner.boot(env);
      start = instance.startWebhooks;
      return {
        ...instance,
        startWebhooks: undefined,
        createApp(ctx, listening) {
          context = ctx;
          return instance.createApp(ctx, listening);
        },
      };
    },
  };
  return { module, startWorker: () => start!(context!) };
}

export interface Service {
  runtime: Runtime;
  startWorker(): Promise<{ stop(): Promise<void> }>;
  url: string;
  token: string;
  workspaceId: string;
  items: string[];
  deps: {
    commandHandler: Runtime['context']['commandHandler'];
    readStore: Runtime['stores']['readStore'];
  };
}

export async function startService(dir: string): Promise<Service> {
  const config = loadConfig({
    DATA_DIR: dir,
    FEEDBACK_PORT: '0',
    NOTES_PORT: '0',
    LOG_LEVEL: 'error',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // sign-in mail is not exercised: the dev mailbox keeps the runtime from asking for SMTP
    DEV_MODE: 'true',
  });
  const feedback = pausableFeedback();
  const runtime = await startRuntime({
    config,
    role: 'all',
    services: [feedback.module],
    logger: process.env.BENCH_DEBUG ? createLogger('debug') : silentLogger,
  });
  const handlers = {
    commandHandler: runtime.context.commandHandler,
    readStore: runtime.stores.readStore,
  };
  const personIdKey = idKeyFor(runtime.context.secret, actions.PERSON_ID_PURPOSE);
  const deps = { ...handlers, personIds: actions.createPersonIds({ ...handlers, personIdKey }) };
  const context = () => ({ actor: 'bench', now: Date.now() });
  const { userId } = await actions.createUser(deps, context(), {
    email: 'bench@example.com',
    displayName: 'Bench',
  });
  const { workspaceId } = await actions.createWorkspace(deps, context(), {
    slug: 'bench-hooks',
    name: 'Bench',
    ownerId: userId,
  });
  await actions.createProduct(deps, context(), {
    workspaceId,
    key: 'APP',
    name: 'App',
    visibility: 'public',
  });
  const items: string[] = [];
  for (let i = 0; i < ITEMS; i++) {
    const { itemKey } = await actions.submitFeedback(deps, context(), {
      workspaceId,
      productKey: 'APP',
      body: `Benchmark item ${i}: a sentence or two of feedback, as long as a real one tends to be.`,
      requester: { email: `person${i}@example.com`, displayName: `Person ${i}` },
    });
    items.push(itemKey);
  }
  const token = await actions.createToken(deps, context(), { ownerId: userId, name: 'bench' });
  await runtime.context.waitFor(await runtime.stores.eventStore.headPosition());
  // measure a settled service: the search model loads on this thread at start
  const deadline = Date.now() + TIME_CAP_MS;
  for (;;) {
    const report = await runtime.context.health();
    const state = (report.search as { state?: string } | undefined)?.state;
    if (state !== 'loading' && state !== 'not-started') break;
    if (Date.now() > deadline) throw new Error('the search model did not load');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    runtime,
    startWorker: feedback.startWorker,
    url: runtime.urls.get('feedback')!,
    token: token.token,
    workspaceId,
    items,
    deps,
  };
}

export async function call(service: Service, method: string, path: string, body?: unknown) {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

export async function subscribe(service: Service, ports: number[]): Promise<string[]> {
  const ids: string[] = [];
  for (const port of ports) {
    const res = await call(service, 'POST', '/v1/workspaces/bench-hooks/webhooks', {
      url: `http://127.0.0.1:${port}/hooks`,
      eventTypes: ['item.tagged'],
    });
    ids.push(res.webhook.id);
  }
  return ids;
}

export async function unsubscribe(service: Service, ids: string[]) {
  for (const id of ids) await call(service, 'DELETE', `/v1/workspaces/bench-hooks/webhooks/${id}`);
}
