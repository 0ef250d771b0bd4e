/**
 * The board model's messages: the event feed (README "Catching up": "each message comes exactly
 * once, however many events arrive meanwhile"; "every change of an item is exactly one message,
 * so per item the sequences count 0, 1, 2, …") and the webhook receiver's view of the same
 * messages ("the same `webhook-id` on every retry … deduplicate on it"; "One item's messages go
 * to a webhook one at a time … so they arrive in order").
 */
import type { AsyncCommand } from 'fast-check';
import { expect } from 'chai';
import { eventually } from '../webhooks/support/world.js';
import { expectAnswer } from './checks.js';
import {
  type MessageType,
  type Model,
  type ModelItem,
  type ProductKey,
  type Revision,
  snapOf,
} from './model.js';
import { api, type Real, received } from './world.js';

type Keep = (item: ModelItem, revision: Revision) => boolean;

/** Every message of the workspace so far (that `keep` keeps), each against its item revision. */
function expectMessages(model: Model, messages: any[], what: string, keep: Keep = () => true) {
  const byItem = new Map<string, any[]>();
  for (const message of messages) {
    const list = byItem.get(message.data.itemKey) ?? [];
    list.push(message);
    byItem.set(message.data.itemKey, list);
  }
  for (const item of model.items) {
    const got = byItem.get(item.key) ?? [];
    byItem.delete(item.key);
    expect(
      got.map((m) => [m.data.sequence, m.type]),
      `${what}: the messages of ${item.key}`,
    ).to.deep.equal(item.revisions.flatMap((r, i) => (keep(item, r) ? [[i, r.type]] : [])));
    for (const m of got) {
      expect(snapOf(m.data.item), `${what}: ${item.key} message ${m.data.sequence}`).to.deep.equal(
        item.revisions[m.data.sequence]!.snap,
      );
    }
  }
  expect([...byItem.keys()], `${what}: messages of no item the model knows`).to.deep.equal([]);
}

/**
 * README: "A page may be short, even empty, before the end; keep following `nextCursor`" (a
 * page scans at most 10,000 events of other workspaces). At the end, the cursor stays put.
 */
const atEnd = (page: { items: unknown[]; nextCursor: string }, sent: string | undefined) =>
  page.items.length === 0 && page.nextCursor === sent;

export class ReadFeed implements AsyncCommand<Model, Real> {
  constructor(readonly pageSize: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const base = `/v1/workspaces/${real.slug}/events?pageSize=${this.pageSize}`;
    for (let page = 0; page < 200; page++) {
      const { cursor } = real.feed;
      const res = await api(real, 'member').get(`${base}${cursor ? `&after=${cursor}` : ''}`);
      expectAnswer(res, 200);
      expect(res.body.nextCursor).to.be.a('string');
      real.feed.cursor = res.body.nextCursor;
      real.feed.messages.push(...res.body.items);
      if (atEnd(res.body, cursor)) break;
    }
    const { messages } = real.feed;
    const ids = messages.map((m) => m.data.messageId);
    expect(new Set(ids).size, 'each message once').to.equal(ids.length);
    const positions = messages.map((m) => BigInt(m.data.position));
    expect(
      positions.every((p, i) => i === 0 || p > positions[i - 1]!),
      'oldest first',
    ).to.equal(true);
    expectMessages(model, messages, 'the feed');
  }
  toString = () => `ReadFeed(${this.pageSize})`;
}

/** The feed from its start, narrowed to a product and some message types (README `?productKey`, `?types`). */
export class ReadFeedFiltered implements AsyncCommand<Model, Real> {
  constructor(
    readonly productKey: ProductKey,
    readonly types: MessageType[],
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const query = `productKey=${this.productKey}&types=${this.types.join(',')}&pageSize=7`;
    const messages: any[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 200; page++) {
      const after = cursor ? `&after=${cursor}` : '';
      const res = await api(real, 'owner').get(
        `/v1/workspaces/${real.slug}/events?${query}${after}`,
      );
      expectAnswer(res, 200);
      messages.push(...res.body.items);
      if (atEnd(res.body, cursor)) break;
      cursor = res.body.nextCursor;
    }
    const keep: Keep = (item, revision) =>
      item.product === this.productKey && this.types.includes(revision.type);
    expectMessages(model, messages, `the feed of ${query}`, keep);
  }
  toString = () => `ReadFeedFiltered(${this.productKey}, ${this.types.join(',')})`;
}

/** At the end of a run: the receiver got every message once, in order per item, as the feed. */
export async function checkWebhooks(model: Model, real: Real): Promise<void> {
  const total = model.items.reduce((sum, item) => sum + item.revisions.length, 0);
  await eventually(async () => received(real).length >= total, `${total} webhook messages`);
  await new ReadFeed(200).run(model, real);
  const deliveries = received(real);
  const ids = deliveries.map((d) => d.id);
  expect(new Set(ids).size, 'each webhook-id delivered once').to.equal(ids.length);
  expectMessages(
    model,
    deliveries.map((d) => d.message),
    'the webhook',
  );
  const feed = new Map(real.feed.messages.map((m) => [m.data.messageId, m]));
  for (const { id, message } of deliveries) {
    expect(message.data.messageId).to.equal(id);
    expect(message, `webhook message ${id} is the feed's`).to.deep.equal(feed.get(id));
  }
}
