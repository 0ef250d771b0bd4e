/**
 * The workspace the webhook tests share: `acme-co` owned by `owner` (admin) with `member`
 * (member role) and `outsider` (a maker of another workspace); products APP and WEB (public).
 * Private targets are allowed, because the receivers listen on 127.0.0.1.
 */
import { expect } from 'chai';
import type {
  ApiResponse,
  FeedbackHarness,
  Maker,
  StartOptions,
  Workspace,
} from '../../support/harness.js';
import { startFeedback } from '../../support/harness.js';
import { type Receiver, startReceiver } from './receiver.js';

export const SLUG = 'acme-co';
export const hooks = (slug = SLUG) => `/v1/workspaces/${slug}/webhooks`;
export const hook = (id: string, slug = SLUG) => `${hooks(slug)}/${id}`;
export const item = (itemKey: string, slug = SLUG) =>
  `/v1/workspaces/${slug}/products/${itemKey.split('-')[0]}/items/${itemKey}`;
export const submitPath = (key = 'APP', slug = SLUG) => `/v1/public/${slug}/${key}/feedback`;

export interface World {
  fb: FeedbackHarness;
  ws: Workspace;
  owner: Maker;
  member: Maker;
  outsider: Maker;
}

export async function startWorld(options: StartOptions = {}): Promise<World> {
  const fb = await startFeedback({
    ...options,
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...options.env },
  });
  const owner = await fb.createMaker('owner@acme.io', 'laptop');
  const member = await fb.createMaker('member@acme.io', 'cli');
  const outsider = await fb.createMaker('outsider@else.io', 'assistant');
  const ws = await fb.createWorkspace(owner, { slug: SLUG, name: 'Acme' });
  await fb.addMember(ws, member.userId, 'member');
  await fb.createProduct(ws, { key: 'APP', name: 'Acme App', visibility: 'public' });
  await fb.createProduct(ws, { key: 'WEB', name: 'Acme Web', visibility: 'public' });
  return { fb, ws, owner, member, outsider };
}

/** A world and `count` receivers, for a `before` hook: `[world, receiver] = await …(1)`. */
export async function startWorldWith<N extends 1 | 2>(
  count: N,
  options: StartOptions = {},
): Promise<N extends 1 ? [World, Receiver] : [World, Receiver, Receiver]> {
  const world = await startWorld(options);
  const receivers = [];
  for (let i = 0; i < count; i++) receivers.push(await startReceiver());
  return [world, ...receivers] as N extends 1 ? [World, Receiver] : [World, Receiver, Receiver];
}

/** The `after` hook of startWorldWith: the service, then the receivers. */
export async function stopWorld(world: World, ...receivers: Receiver[]): Promise<void> {
  await world.fb.stop();
  for (const receiver of receivers) await receiver.close();
}

/** create_webhook as the owner; answers the webhook and its secret */
export async function subscribe(
  world: World,
  receiver: Receiver | string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; secret: string; webhook: any }> {
  const url = typeof receiver === 'string' ? receiver : receiver.url;
  const res = await world.fb.api(world.owner.token).post(hooks(), { url, ...extra });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { id: res.body.webhook.id, secret: res.body.secret, webhook: res.body.webhook };
}

export async function submit(world: World, body: string, key = 'APP'): Promise<string> {
  const res = await world.fb.api(world.owner.token).post(submitPath(key), { body });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.itemId as string;
}

export function expectError(res: ApiResponse, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(status);
  expect(res.body).to.have.all.keys('error', 'code');
  expect(res.body.code).to.equal(code);
}

export { startReceiver, type Receiver } from './receiver.js';

/** Wait (bounded) until `check` holds, polling. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Wait until the webhook worker has handled the whole log and no attempt is due on the test
 * clock any more (each pending delivery waits for a later retry): the state a clock jump acts on.
 * (An attempt finishing between the two checks leaves a retry in the future, so "nothing due"
 * after the worker reached the head means every attempt due now has happened.)
 */
export async function settle(world: World, webhookId: string): Promise<void> {
  const { fb } = world;
  const runtime = fb.runtime.runtime;
  await eventually(async () => {
    const head = await runtime.stores.eventStore.headPosition();
    const report = await runtime.context.health();
    const worker = report.webhooks as { checkpoint: string } | undefined;
    return worker && BigInt(worker.checkpoint) >= head;
  }, 'the webhook worker to reach the head of the log');
  await eventually(async () => {
    const { body } = await fb.api(world.owner.token).get(hook(webhookId));
    if (!body.webhook?.enabled) return true; // a disabled webhook's deliveries wait for it
    const res = await fb
      .api(world.owner.token)
      .get(`${hook(webhookId)}/deliveries?status=pending&pageSize=200`);
    const now = fb.clock.now();
    return res.body.items.every((d: any) => d.nextAttemptAt !== null && d.nextAttemptAt > now);
  }, 'no delivery attempt to be due');
}

export const HOUR = 60 * 60 * 1000;
