/**
 * list_audit_events over real HTTP (issue 15): "`{items: [Change], nextCursor}`, newest first;
 * admin role"; "`list_audit_events` filters combine; a non-admin gets 403, a non-member 404".
 */
import { expect } from 'chai';
import { expect400, expect404, expectError } from '../triage/board.js';
import { SLUG, type Story, tellStory } from './story.js';

const AUDIT = `/v1/workspaces/${SLUG}/audit`;

interface ChangeBody {
  type: string;
  position: string;
  occurredAt: number;
  itemKey: string | null;
  actor: { kind: string; id: string | null; name: string | null };
  via?: string;
  summary: string;
}

describe('Workspace audit trail (e2e)', () => {
  let story: Story;
  before(async function () {
    this.timeout(120_000);
    story = await tellStory();
  });
  after(() => story.fb.stop());
  const owner = () => story.fb.api(story.owner.token);
  const all = async (query = ''): Promise<ChangeBody[]> => {
    const out: ChangeBody[] = [];
    let cursor: string | null = null;
    do {
      const suffix: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await owner().get(`${AUDIT}?pageSize=7${query}${suffix}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      out.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    return out;
  };

  describe('When an admin reads the whole trail', () => {
    it('lists the workspace’s events newest first, each once across pages', async () => {
      const events = await all();
      const positions = events.map((e) => BigInt(e.position));
      expect(positions).to.deep.equal([...positions].sort((a, b) => (a > b ? -1 : 1)));
      expect(new Set(positions).size).to.equal(positions.length);
      const types = new Set(events.map((e) => e.type));
      for (const type of ['WorkspaceCreated', 'MemberAdded', 'ProductCreated', 'PersonCreated']) {
        expect(types).to.include(type);
      }
      expect(types).not.to.include('ItemNumberAllocated');
      const history = (await owner().get(`/v1/workspaces/${SLUG}/products/APP/items/APP-1/history`))
        .body.items as ChangeBody[];
      // an item event reads the same in the trail as in the item's history
      const inTrail = events.filter(
        (e) => e.itemKey === 'APP-1' && e.type !== 'ChangelogEntryPublished',
      );
      expect(inTrail.reverse()).to.deep.equal(history);
    });
  });

  describe('When filters are given', () => {
    it('combines them: every filter must hold', async () => {
      const everything = await all();
      const agentReplies = await all(`&type=ItemReplied&via=${encodeURIComponent('api:Claude')}`);
      expect(agentReplies.map((e) => e.summary)).to.deep.equal([
        'Claude acting for max replied: “Noted by AI”',
      ]);
      const byOwnerStatus = await all(`&type=ItemStatusChanged&actorId=${story.owner.userId}`);
      expect(byOwnerStatus.map((e) => e.summary)).to.deep.equal([
        'max changed the status from planned to shipped',
        'max changed the status from new to planned',
      ]);
      const personEvents = await all(`&actorId=${story.ann}`);
      expect(personEvents.map((e) => e.type)).to.deep.equal(['ItemReplied']);
      const product = await all('&productKey=APP');
      // the product's, its items', and the people its submissions brought (Ann's and Bo's)
      const ofApp = (e: ChangeBody) =>
        e.itemKey?.startsWith('APP-') || e.type.startsWith('Product') || e.type === 'PersonCreated';
      expect(product.every(ofApp)).to.be.true;
      const middle = everything[Math.floor(everything.length / 2)]!;
      const window = await all(`&from=${middle.occurredAt}&to=${middle.occurredAt}`);
      expect(window.length).to.be.greaterThan(0);
      expect(window.every((e) => e.occurredAt === middle.occurredAt)).to.be.true;
      const none = await all(`&type=ItemTagged&via=${encodeURIComponent('api:Claude')}`);
      expect(none).to.deep.equal([]);
    });

    it('refuses bad filter values and an edited cursor with 400', async () => {
      expect400(await owner().get(`${AUDIT}?productKey=app`));
      expect400(await owner().get(`${AUDIT}?from=soon`));
      expect400(await owner().get(`${AUDIT}?pageSize=0`));
      expect400(await owner().get(`${AUDIT}?cursor=forged`));
    });

    it('refuses a type the trail never holds with 400 naming the allowed ones', async () => {
      // spec Errors: a value outside an enum answers 400 invalid-argument; a misspelt or a
      // webhook-style name must not answer an empty page, as if nothing had happened
      for (const type of ['itemstatuschanged', 'item.status_changed', 'ItemNumberAllocated']) {
        const res = await owner().get(`${AUDIT}?type=${type}`);
        expect400(res);
        expect(res.body.error).to.contain('ItemStatusChanged');
      }
    });

    it('refuses a type of the workspace’s own with productKey with 400, not an empty page', async () => {
      // README: webhooks, integration credentials (and the workspace's own events) "belong to no
      // product: a `productKey` filter leaves them out" — the pair can match nothing, and an
      // empty page would read as "no webhook was made for APP"
      for (const type of ['WebhookCreated', 'MemberAdded', 'IntegrationRevoked']) {
        const res = await owner().get(`${AUDIT}?type=${type}&productKey=APP`);
        expect400(res);
        expect(res.body.error).to.equal(
          `${type} events belong to the workspace, not to a product: productKey leaves them out`,
        );
        expect((await owner().get(`${AUDIT}?type=${type}`)).status).to.equal(200);
      }
      const people = await all('&type=PersonCreated&productKey=APP');
      expect(people.length).to.be.greaterThan(0);
    });

    it('refuses a time range that ends before it starts with 400, not an empty page', async () => {
      // like a misspelt type: `from` after `to` (the two swapped) can match nothing, and an
      // empty page would read as "nothing happened then"
      const { items } = (await owner().get(`${AUDIT}?pageSize=200`)).body as {
        items: ChangeBody[];
      };
      const moment = items.at(-1)!.occurredAt;
      const swapped = await owner().get(`${AUDIT}?from=${moment + 1}&to=${moment}`);
      expect400(swapped);
      expect(swapped.body.error).to.equal(
        `from (${moment + 1}) is after to (${moment}): no moment is in that range`,
      );
      const one = await owner().get(`${AUDIT}?from=${moment}&to=${moment}`);
      expect(one.status).to.equal(200);
      expect(one.body.items.length).to.be.greaterThan(0);
    });

    it('refuses a bound sent in seconds with 400 and the hint get_item_as_of gives', async () => {
      // README: `from`, `to` are "ms"; a moment before 1973 was almost surely sent in seconds
      // (get_item_as_of's hint): `to` in seconds would answer an empty page, `from` every event
      const { items } = (await owner().get(`${AUDIT}?pageSize=1`)).body as { items: ChangeBody[] };
      const seconds = Math.floor(items[0]!.occurredAt / 1000);
      for (const query of [`from=${seconds}`, `to=${seconds}`]) {
        const res = await owner().get(`${AUDIT}?${query}`);
        expect400(res);
        expect(res.body.error).to.equal(
          `${query.replace('=', ' is ')} (timestamps are milliseconds since 1970; this looks like seconds)`,
        );
      }
      // 0 is the epoch in any unit: still "from the beginning"
      expect((await owner().get(`${AUDIT}?from=0`)).status).to.equal(200);
    });
  });

  describe('When a range or paging parameter is at its edge', () => {
    it('refuses to=0 with 400: it is the epoch, not "no bound", and would answer an empty page', async () => {
      // README: `from`, `to` are ms; an empty page reads as "nothing happened then"
      const res = await owner().get(`${AUDIT}?to=0`);
      expect400(res);
      expect(res.body.error).to.equal(
        'to is 0, the first moment of 1970: no change is that old; leave `to` out to read up to now',
      );
      expect400(await owner().get(`${AUDIT}?from=0&to=0`));
      // negative, fractional and oversized bounds are not moments: 400, never an empty page
      for (const query of ['from=-1', 'to=1.5', 'to=1e300', 'pageSize=2.5', 'pageSize=201']) {
        expect400(await owner().get(`${AUDIT}?${query}`));
      }
      // a `from` past the trail's end is a question with an answer: nothing happened since
      const late = await owner().get(`${AUDIT}?from=${story.fb.clock.now() + 86_400_000}`);
      expect(late.status).to.equal(200);
      expect(late.body).to.deep.equal({ items: [], nextCursor: null });
    });

    it('refuses a cursor sent with other filters than it was issued with, as list_items does', async () => {
      // list_items: "It belongs to the filters it was issued with: sent with other filters, or
      // edited, it answers 400" — another list walked from the middle would skip its newer events
      const first = await owner().get(`${AUDIT}?pageSize=2&productKey=APP`);
      const cursor = encodeURIComponent(first.body.nextCursor);
      expect(cursor).to.be.a('string');
      const same = await owner().get(`${AUDIT}?pageSize=2&productKey=APP&cursor=${cursor}`);
      expect(same.status).to.equal(200);
      const moment = first.body.items[0].occurredAt as number;
      const app = '&productKey=APP';
      for (const other of ['', `${app}&type=ItemReplied`, `${app}&to=${moment}`, `${app}&from=0`]) {
        const res = await owner().get(`${AUDIT}?pageSize=2${other}&cursor=${cursor}`);
        expect400(res);
        expect(res.body.error).to.contain('cursor is not one this listing issued');
      }
    });
  });

  describe('When a filter names a product or an actor the workspace does not have', () => {
    it('answers productKey with list_items’ 404, the same for a product of another workspace', async () => {
      // spec Errors: "unknown item; unknown or unreachable workspace … | 404 | not-found", as
      // list_items answers an unknown product; an empty page would read as "nothing happened
      // in that product"
      await story.fb.createProduct(story.outsider.home, { key: 'EVE', name: 'Eve’s' });
      const unknown = await owner().get(`${AUDIT}?productKey=APX`);
      expect404(unknown);
      const listItems = await owner().get(`/v1/workspaces/${SLUG}/products/APX/items`);
      expect(unknown.body).to.deep.equal(listItems.body);
      // another workspace's product is not this one's: the same answer, so nothing leaks
      expect((await owner().get(`${AUDIT}?productKey=EVE`)).body).to.deep.equal(unknown.body);
      expect((await owner().get(`${AUDIT}?productKey=APP`)).status).to.equal(200);
    });

    it('answers an actorId naming no one of the workspace with 404, not an empty page', async () => {
      const typo = await owner().get(`${AUDIT}?actorId=${story.owner.userId}x`);
      expect404(typo);
      expect(typo.body.error).to.equal('actor not found');
      // a maker of another workspace is no one here: the same answer
      const elsewhere = await owner().get(`${AUDIT}?actorId=${story.outsider.userId}`);
      expect(elsewhere.body).to.deep.equal(typo.body);
      // a member, a person of the workspace: found, even with nothing to list
      for (const actorId of [story.member.userId, story.ann]) {
        const res = await owner().get(`${AUDIT}?actorId=${actorId}`);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
    });
  });

  describe('When someone other than an admin asks', () => {
    it('answers 403 to a member and the unknown-workspace 404 to a non-member', async () => {
      expectError(await story.fb.api(story.member.token).get(AUDIT), 403, 'permission-denied');
      const outsider = await story.fb.api(story.outsider.token).get(AUDIT);
      expect404(outsider);
      const unknown = await owner().get('/v1/workspaces/nowhere-co/audit');
      expect(outsider.body).to.deep.equal(unknown.body);
    });
  });
});
