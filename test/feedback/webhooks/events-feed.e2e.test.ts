/**
 * Issue 18, list_events: "`{items: [Message], nextCursor}` oldest first — the same messages the
 * webhooks carry, for catching up after an outage; any member may read it. ... `nextCursor` is
 * never null — at the current end it is the point to poll from later".
 * "Must show": "`list_events` pages through every message exactly once while new events arrive,
 * and an edited cursor answers 400."
 */
import { expect } from 'chai';
import { verify } from './support/receiver.js';
import {
  eventually,
  expectError,
  item,
  type Receiver,
  startWorldWith,
  stopWorld,
  submit,
  submitPath,
  subscribe,
  type World,
} from './support/world.js';

const FEED = '/v1/workspaces/acme-co/events';

describe('The event feed, list_events (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  let secret: string;

  before(async () => {
    [world, receiver] = await startWorldWith(1);
    secret = (await subscribe(world, receiver)).secret;
  });
  after(() => stopWorld(world, receiver));
  const member = () => world.fb.api(world.member.token);
  const owner = () => world.fb.api(world.owner.token);

  /** every item and changelog event of the workspace in the log, in order */
  async function logMessageIds(): Promise<string[]> {
    const events = await world.fb.runtime.runtime.stores.eventStore.readAll();
    return events
      .filter(
        (e) =>
          e.streamId.startsWith(`item-${world.ws.workspaceId}.`) ||
          e.streamId.startsWith(`changelog-${world.ws.workspaceId}.`),
      )
      .map((e) => `msg_${e.id.replaceAll('-', '')}`);
  }

  describe('When a member pages through the feed while new events arrive', () => {
    it('sees every message exactly once, oldest first, and the cursor is never null', async () => {
      const keys: string[] = [];
      for (let i = 0; i < 5; i++) keys.push(await submit(world, `Seed ${i}`));
      const seen: any[] = [];
      let after: string | undefined;
      for (let page = 0; page < 40; page++) {
        const res = await member().get(`${FEED}?pageSize=3${after ? `&after=${after}` : ''}`);
        expect(res.status).to.equal(200);
        expect(res.body.nextCursor).to.be.a('string');
        seen.push(...res.body.items);
        after = res.body.nextCursor;
        // writers keep going between pages
        if (page < 6) {
          await owner().post(`${item(keys[page % 5]!)}/status`, { status: 'planned' });
          await submit(world, `Arrived while paging ${page}`, page % 2 ? 'WEB' : 'APP');
        }
        if (page >= 6 && res.body.items.length === 0) break;
      }
      const ids = seen.map((m) => m.data.messageId);
      expect(new Set(ids).size).to.equal(ids.length);
      expect(ids).to.deep.equal(await logMessageIds());
      const positions = seen.map((m) => BigInt(m.data.position));
      expect(positions.every((p, i) => i === 0 || p > positions[i - 1]!)).to.equal(true);

      // at the end: an empty page, and a cursor to poll from that finds what comes next
      const end = await member().get(`${FEED}?after=${after}`);
      expect(end.body.items).to.deep.equal([]);
      const later = await submit(world, 'After the end');
      const next = await member().get(`${FEED}?after=${end.body.nextCursor}`);
      expect(next.body.items.map((m: any) => [m.type, m.data.itemKey])).to.deep.equal([
        ['item.created', later],
      ]);
    });
  });

  describe('When the cursor was edited or comes from elsewhere', () => {
    it('answers 400 invalid-argument', async () => {
      const first = await member().get(`${FEED}?pageSize=1`);
      const cursor: string = first.body.nextCursor;
      const edited = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA');
      expectError(await member().get(`${FEED}?after=${edited}`), 400, 'invalid-argument');
      const forged = `${Buffer.from('{"p":"0"}').toString('base64url')}.${cursor.split('.')[1]}`;
      expectError(await member().get(`${FEED}?after=${forged}`), 400, 'invalid-argument');
      // a cursor of another listing (the outsider's own workspace feed) is not valid here
      const theirs = await world.fb
        .api(world.outsider.token)
        .get(`/v1/workspaces/${world.outsider.home.slug}/events`);
      expectError(
        await member().get(`${FEED}?after=${theirs.body.nextCursor}`),
        400,
        'invalid-argument',
      );
    });

    it('answers 400 for an unknown type and a page size out of bounds', async () => {
      expectError(await member().get(`${FEED}?types=item.exploded`), 400, 'invalid-argument');
      expectError(await member().get(`${FEED}?pageSize=0`), 400, 'invalid-argument');
      expectError(await member().get(`${FEED}?pageSize=201`), 400, 'invalid-argument');
      expectError(await member().get(`${FEED}?productKey=lower`), 400, 'invalid-argument');
    });
  });

  describe('When the feed is filtered by type and product', () => {
    it('answers only those messages', async () => {
      const key = await submit(world, 'Filter me', 'WEB');
      await owner().post(`${item(key)}/replies`, { body: 'A reply on WEB' });
      const res = await member().get(
        `${FEED}?types=item.replied,item.tagged&productKey=WEB&pageSize=200`,
      );
      expect(res.body.items.length).to.be.greaterThan(0);
      for (const m of res.body.items) {
        expect(['item.replied', 'item.tagged']).to.include(m.type);
        expect(m.data.productKey).to.equal('WEB');
      }
    });
  });

  describe('When the feed is filtered by a product the workspace does not have', () => {
    it('answers 404 as list_items does, also for another workspace’s product', async () => {
      // spec Errors: an unknown product is "not-found" (list_items); an empty page, and a
      // cursor to poll forever, would read as "nothing happened in that product"
      const unknown = await member().get(`${FEED}?productKey=APX`);
      expectError(unknown, 404, 'not-found');
      const listItems = await member().get('/v1/workspaces/acme-co/products/APX/items');
      expect(unknown.body).to.deep.equal(listItems.body);
      const other = await world.fb.createMaker('olga@else.io');
      await world.fb.createProduct(other.home, { key: 'OLG', name: 'Olga’s' });
      expect((await member().get(`${FEED}?productKey=OLG`)).body).to.deep.equal(unknown.body);
    });
  });

  describe('When a message is read from the feed after its item changed again', () => {
    it('describes the item as it was right after that change — the message the webhook carried', async () => {
      const key = await submit(world, 'Historic item');
      await owner().post(`${item(key)}/status`, { status: 'shipped' });
      const res = await member().get(`${FEED}?types=item.created&pageSize=200`);
      const created = res.body.items.find((m: any) => m.data.itemKey === key);
      expect(created.data.item.status).to.equal('new');
      expect(created.data.sequence).to.equal(0);
      // the same message the webhook delivered
      const sent = await eventually(
        async () => receiver.received.find((r) => r.id === created.data.messageId),
        'the webhook delivery of that message',
      );
      expect(created).to.deep.equal(verify(secret, sent));
    });
  });

  describe('When the person who acted renamed themselves afterwards', () => {
    it('still names them as they were named then: the message the webhook carried', async () => {
      const outsider = world.fb.api(world.outsider.token);
      const first = await outsider.post(submitPath('APP'), { body: 'Before', displayName: 'Zed' });
      expect(first.status).to.equal(200);
      const key = first.body.itemId as string;
      const sent = await eventually(
        async () =>
          receiver.received.find((r) => verify(secret, r).data.itemKey === key) ?? undefined,
        'the webhook delivery of item.created',
      );
      const delivered = verify(secret, sent);
      expect(delivered.data.actor).to.include({ kind: 'person', name: 'Zed' });
      const renamed = await outsider.post(submitPath('WEB'), {
        body: 'After',
        displayName: 'Zed Renamed',
      });
      expect(renamed.status).to.equal(200);
      const res = await member().get(`${FEED}?types=item.created&pageSize=200`);
      const later = res.body.items.find(
        (m: { data: { itemKey: string } }) => m.data.itemKey === key,
      );
      // README: the feed answers "the same messages" the webhooks carry; a message id, one body
      expect(later).to.deep.equal(delivered);
      const newer = res.body.items.find(
        (m: { data: { itemKey: string } }) => m.data.itemKey === renamed.body.itemId,
      );
      expect(newer.data.actor).to.include({ kind: 'person', name: 'Zed Renamed' });
    });
  });
});
