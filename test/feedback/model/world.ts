/**
 * The real side of the board model (board-model.e2e.test.ts): one feedback service for the whole
 * file — in-process on the embedded stores, or with MODEL_TARGET=split a split deployment over
 * the engines (split.ts) —, its makers, and per run a fresh workspace — the owner (admin) and a member (member
 * role), products APP and WEB (both public, so board visitors can +1), a webhook to a receiver
 * on 127.0.0.1, two board visitors and the event feed read so far. A maker of another workspace
 * (the outsider) is never let in.
 */
import { expect } from 'chai';
import type { Routed } from '../../support/model-runs.js';
import type { Route } from '../../support/route.js';
import { BoardVisitor } from '../board/support.js';
import {
  type FeedbackHarness,
  type Maker,
  startFeedback,
  type Workspace,
} from '../support/harness.js';
import { type Receiver, startReceiver } from '../webhooks/support/receiver.js';
import type { Actor } from './model.js';
import { type Board, splitBoard } from './split.js';

/** MODEL_TARGET=split: two API processes, a projector and a webhook worker over the engines */
export const SPLIT = process.env.MODEL_TARGET === 'split';

export interface Service {
  fb: Board;
  makers: Record<Actor | 'outsider', Maker>;
  receiver: Receiver;
  runs: number;
}

/** A board visitor and the CSRF token the board's last JSON answer gave it. */
export interface Visitor {
  browser: BoardVisitor;
  csrf: string;
}

export interface Real extends Routed {
  service: Service;
  ws: Workspace;
  slug: string;
  webhookId: string;
  visitors: Visitor[];
  /** the event feed as read so far, and where to read on from */
  feed: { cursor: string | undefined; messages: any[] };
}

export async function startService(): Promise<Service> {
  // every visitor presses +1 from 127.0.0.1, many runs long
  const env = {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    PLUS_ONES_PER_IP_PER_HOUR: '1000000',
    PLUS_ONES_PER_IP_PER_ITEM_PER_DAY: '100000',
  };
  const fb: Board = SPLIT ? await splitBoard(env) : inProcess(await startFeedback({ env }));
  const makers = {
    owner: await fb.createMaker(`owner${fb.tag}@model.io`, 'laptop'),
    member: await fb.createMaker(`member${fb.tag}@model.io`, 'cli'),
    outsider: await fb.createMaker(`outsider${fb.tag}@else.io`, 'assistant'),
  };
  return { fb, makers, receiver: await startReceiver(), runs: 0 };
}

/** The in-process harness as a Board: one address, a clock the test moves. */
const inProcess = (fb: FeedbackHarness): Board => ({
  api: (token) => fb.api(token),
  ...{ createMaker: fb.createMaker, createWorkspace: fb.createWorkspace },
  ...{ addMember: fb.addMember, createProduct: fb.createProduct, stop: fb.stop },
  clock: fb.clock,
  url: () => fb.url,
  tag: '',
});

export async function stopService(service: Service | undefined): Promise<void> {
  await service?.fb.stop();
  await service?.receiver.close();
}

/**
 * A fresh workspace for one run of the model, subscribed to the receiver before anything else;
 * in split mode its requests go where `route` says.
 */
export async function freshBoard(service: Service, route: Route): Promise<Real> {
  const { fb, makers } = service;
  const slug = `model${fb.tag}-${++service.runs}`;
  const ws = await fb.createWorkspace(makers.owner, { slug, name: `Model ${service.runs}` });
  await fb.addMember(ws, makers.member.userId, 'member');
  await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
  await fb.createProduct(ws, { key: 'WEB', name: 'Web', visibility: 'public' });
  const hook = await fb
    .api(makers.owner.token, route)
    .post(`/v1/workspaces/${slug}/webhooks`, { url: service.receiver.url });
  expect(hook.status, JSON.stringify(hook.body)).to.equal(200);
  const visitors = [0, 1].map(() => ({ browser: new BoardVisitor(fb.url(route)), csrf: '' }));
  return {
    service,
    ws,
    slug,
    webhookId: hook.body.webhook.id,
    visitors,
    feed: { cursor: undefined, messages: [] },
    route,
  };
}

export const api = (real: Real, who: Actor | 'outsider') =>
  real.service.fb.api(real.service.makers[who].token, real.route);

export const itemPath = (real: Real, itemKey: string) =>
  `/v1/workspaces/${real.slug}/products/${itemKey.split('-')[0]}/items/${itemKey}`;

/** The webhook messages the receiver got for this run's workspace, in arrival order. */
export function received(real: Real): { id: string; message: any }[] {
  // long explorations keep tens of thousands of requests: parse only this run's
  const mark = `"workspace":"${real.slug}"`;
  return real.service.receiver.received
    .filter((r) => r.body.includes(mark))
    .map((r) => ({ id: r.id, message: JSON.parse(r.body) }))
    .filter((r) => r.message.data?.workspace === real.slug);
}
