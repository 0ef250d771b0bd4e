/**
 * submit_feedback over real HTTP. The spec leaves its body and response "not shown"; ours:
 * `{body, title?, email?, displayName?}` -> 200 `{itemId, title, status}` (see
 * src/feedback/http/triage/submit.ts), any valid bearer, no membership, private products 404.
 */
import { expect } from 'chai';
import { type Api, startFeedback } from '../support/harness.js';
import { connectClient } from '../support/oauth.js';
import {
  type Board,
  chars,
  expect400,
  expect404,
  expectError,
  items,
  startBoard,
} from './board.js';

const feedback = (slug = 'acme-co', key = 'APP') => `/v1/public/${slug}/${key}/feedback`;

describe('submit_feedback (e2e)', () => {
  let board: Board;
  let outsider: Api;
  let owner: Api;
  const newest = async (key = 'APP') => (await owner.get(`${items(key)}?pageSize=1`)).body.items[0];

  before(async () => {
    board = await startBoard();
    outsider = board.fb.api(board.outsider.token);
    owner = board.fb.api(board.owner.token);
  });
  after(() => board.fb.stop());

  describe('When anyone with a valid token files feedback on a public product', () => {
    it('captures an item from the calling user, labelled with the credential', async () => {
      // spec Public: "These need a valid bearer token but no workspace membership"
      // spec Attribution: "captured items carry the same string as their own via field"
      // spec Endpoints: "Success is HTTP 200 for every operation listed unless stated" (issue 10 item 15)
      const res = await outsider.post(feedback(), { body: 'Please add dark mode.\nThanks!' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({
        itemId: 'APP-1',
        title: 'Please add dark mode.',
        status: 'new',
      });
      const captured = await newest();
      expect(captured).to.include({
        id: 'APP-1',
        title: 'Please add dark mode.',
        via: `pat:${board.outsider.tokenName}`,
      });
      expect(captured.author).to.deep.equal({
        tier: 'email',
        displayName: 'outsider',
        avatar: null,
      });
    });

    it('names the filer as the person the item is from in its history, not as a maker', async () => {
      // spec: "Makers (workspace members)"; issue 15's actor kinds: maker, person, agent, system.
      // An outsider is no maker of this workspace: history names the person, as the board does.
      const captured = await newest();
      const history = await owner.get(`${items()}/${captured.id}/history`);
      expect(history.body.items[0].actor).to.deep.equal({
        kind: 'person',
        id: captured.createdBy,
        name: 'outsider',
      });
      const audit = await owner.get(`/v1/workspaces/acme-co/audit?actorId=${captured.createdBy}`);
      expect(audit.body.items.map((c: { itemKey: string }) => c.itemKey)).to.include(captured.id);
      // their person record was made by their own filing, and the trail says it that way
      const created = audit.body.items.find((c: { type: string }) => c.type === 'PersonCreated');
      expect(created.summary).to.equal("outsider was added to the workspace's people");
    });

    it('keeps a given title, derives one from a blank title, and files for a named requester', async () => {
      // spec Item.title: "when the submitter left it blank, derived from the opening of the body"
      const titled = await outsider.post(feedback(), { body: 'Body text', title: '  CSV export ' });
      expect(titled.body.title).to.equal('CSV export');
      const blank = await outsider.post(feedback(), { body: 'Offline mode', title: '   ' });
      expect(blank.body.title).to.equal('Offline mode');
      const forCustomer = await outsider.post(feedback(), {
        body: 'Customer asks for SSO',
        email: 'cto@customer.io',
        displayName: 'The CTO',
      });
      expect(forCustomer.status).to.equal(200);
      // nobody proved that address: an unverified contact of the caller (issue 10 item 3)
      expect((await newest()).author).to.deep.equal({
        tier: 'anonymous',
        displayName: 'The CTO',
        avatar: null,
      });
    });
  });

  // issue 10 item 3: "an e-mail address that nobody proved never attaches a submission to an
  // existing person and never changes a person's profile"
  describe('When someone files in the name of an existing customer', () => {
    const victim = 'crm@partner.example';
    const people = () => `/v1/workspaces/acme-co/people`;

    before(async () => {
      // the customer files once with their own account: a proven e-mail person
      const customer = await board.fb.createMaker(victim, 'own');
      const res = await board.fb.api(customer.token).post(feedback(), { body: 'Real request' });
      expect(res.status).to.equal(200);
    });

    it('a stranger with a brand-new account neither reaches nor renames that person', async () => {
      await board.fb.createMaker('stranger@evil.example', 'x');
      const client = await connectClient(board.fb, {
        email: 'stranger@evil.example',
        scope: 'openid service.public',
        name: 'Impostor',
      });
      const before = (await owner.get(`${items()}?pageSize=200`)).body.items.find(
        (i: { body: string }) => i.body === 'Real request',
      );
      const res = await board.fb.api(client.accessToken).post(feedback(), {
        body: 'Please cancel my subscription',
        email: victim,
        displayName: 'Renamed By Stranger',
      });
      expect(res.status).to.equal(200);
      const filed = await newest();
      expect(filed.author.tier).to.equal('anonymous');
      expect(filed.createdBy).to.not.equal(before.createdBy);
      const owned = await owner.get(`${people()}/${before.createdBy}`);
      expect(owned.body.displayName).to.not.equal('Renamed By Stranger');
      expect(owned.body.items.map((i: { id: string }) => i.id)).to.not.include(filed.id);
    });

    it("a member files on the customer's behalf without renaming them", async () => {
      const member = board.fb.api(board.member.token);
      const res = await member.post(feedback(), {
        body: 'Customer called: wants SSO',
        email: victim,
        displayName: 'Renamed By Member',
      });
      expect(res.status).to.equal(200);
      const filed = await newest();
      expect(filed.author).to.include({ tier: 'email' });
      const person = await owner.get(`${people()}/${filed.createdBy}`);
      expect(person.body.email).to.equal(victim);
      expect(person.body.displayName).to.not.equal('Renamed By Member');
    });

    it('answers a retry with the same Idempotency-Key with the first item', async () => {
      // DESIGN: "a retried command with the same key returns the first result without appending again"
      const headers = { 'idempotency-key': 'submit-once-1' };
      const first = await outsider.post(feedback(), { body: 'Once only' }, { headers });
      const again = await outsider.post(feedback(), { body: 'Once only' }, { headers });
      expect(first.status).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      expect((await newest()).id).to.equal(first.body.itemId);
    });

    it('answers such a retry as the first attempt also after the item changed and past the fold window', async () => {
      // DESIGN: "a retried command with the same key returns the first result without appending
      // again" — found by the board model: a retry answered the item as it was by then, one past
      // the same-body fold's 10 minutes answered 409, and a keyed submission that had folded
      // filed a second item when retried then
      const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });
      const first = await owner.post(feedback(), { body: 'Retried later' }, keyed('late-1'));
      const item = `${items('APP')}/${first.body.itemId}`;
      await owner.patch(item, { title: 'Renamed since', status: 'planned' });
      const folded = await owner.post(feedback(), { body: 'Retried later' }, keyed('late-2'));
      expect(folded.body).to.deep.equal({
        itemId: first.body.itemId,
        title: 'Renamed since',
        status: 'planned',
      });
      await owner.post(`${item}/status`, { status: 'shipped' });
      expect(
        (await owner.post(feedback(), { body: 'Retried later' }, keyed('late-1'))).body,
      ).to.deep.equal(first.body);
      board.fb.clock.advance(11 * 60_000);
      for (const [key, answer] of [
        ['late-1', first],
        ['late-2', folded],
      ] as const) {
        const retry = await owner.post(feedback(), { body: 'Retried later' }, keyed(key));
        expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
        expect(retry.body).to.deep.equal(answer.body);
      }
      const listed = await owner.get(`${items('APP')}?pageSize=200`);
      const filed = listed.body.items.filter((i: { body: string }) => i.body === 'Retried later');
      expect(filed).to.have.length(1);
    });

    it('accepts a service.public token from an OAuth client', async () => {
      // spec: "the only operations a token with the service.public scope may call"
      const client = await connectClient(board.fb, {
        email: 'outsider@else.io',
        scope: 'openid service.public',
        name: 'Feedback Buddy',
      });
      const res = await board.fb
        .api(client.accessToken)
        .post(feedback(), { body: 'Via my assistant' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(await newest()).to.include({ id: res.body.itemId, via: 'api:Feedback Buddy' });
      // spec: private product -> 404; "Membership never widens such a token"
      const owned = await connectClient(board.fb, {
        email: 'owner@acme.io',
        scope: 'openid service.public',
      });
      expect404(
        await board.fb.api(owned.accessToken).post(feedback('acme-co', 'SEC'), { body: 'x' }),
      );
    });
  });

  describe('When the product is private or does not exist', () => {
    it('answers 404 to an outsider exactly as for an unknown workspace or product', async () => {
      // spec visibility private: "answer 404 to everyone outside the workspace; submissions are refused"
      const hidden = await outsider.post(feedback('acme-co', 'SEC'), { body: 'x' });
      expect404(hidden);
      expect((await outsider.post(feedback('no-such-ws'), { body: 'x' })).body).to.deep.equal(
        hidden.body,
      );
      expect((await outsider.post(feedback('acme-co', 'NOPE'), { body: 'x' })).body).to.deep.equal(
        hidden.body,
      );
      expect((await owner.get(items('SEC'))).body.items).to.deep.equal([]);
    });

    it('lets a member of the workspace file into its private product', async () => {
      const res = await board.fb.api(board.member.token).post(feedback('acme-co', 'SEC'), {
        body: 'Internal note',
      });
      expect(res.status).to.equal(200);
      expect((await newest('SEC')).id).to.equal(res.body.itemId);
    });
  });

  describe('When the request is out of bounds', () => {
    it('holds a caller outside the workspace to the capture box: body 1–5000, title ≤200 (400 past)', async () => {
      // spec: submit_feedback "uses the same spam and rate-limit handling as the capture box";
      // MCP audit: a 5001-character body and a 201-character title were filed through it
      expect((await outsider.post(feedback(), { body: chars(1) })).status).to.equal(200);
      expect((await outsider.post(feedback(), { body: chars(5000) })).status).to.equal(200);
      const long = { body: 'x', title: chars(200), displayName: chars(100), email: 'a@b.io' };
      expect((await outsider.post(feedback(), long)).status).to.equal(200);
      expect400(await outsider.post(feedback(), { body: '' }));
      expect400(await outsider.post(feedback(), { body: chars(5001) }));
      expect400(await outsider.post(feedback(), { body: ' \n ' }));
      expect400(await outsider.post(feedback(), { body: 'x', title: chars(201) }));
      expect400(await outsider.post(feedback(), { body: 'x', displayName: chars(101) }));
    });

    it('lets a member file up to the schema: body 10000, title 500 (400 past)', async () => {
      // our limits for the body the spec does not show: body 1–10000, title ≤500
      const member = board.fb.api(board.member.token);
      expect((await member.post(feedback(), { body: chars(10_000) })).status).to.equal(200);
      expect((await member.post(feedback(), { body: 'y', title: chars(500) })).status).to.equal(
        200,
      );
      expect400(await member.post(feedback(), { body: chars(10_001) }));
      expect400(await member.post(feedback(), { body: 'y', title: chars(501) }));
    });

    it('refuses a missing body, a bad e-mail and unknown fields (400), and a malformed address like an unknown one (404)', async () => {
      expect400(await outsider.post(feedback(), { title: 'no body' }));
      expect400(await outsider.post(feedback(), { body: 'x', email: 'not-an-email' }));
      expect400(await outsider.post(feedback(), { body: 'x', priority: 'high' }));
      // issue 10 item 12: an invalid slug is an unknown workspace
      expect404(await outsider.post(feedback('Bad_Slug'), { body: 'x' }));
      expect404(await outsider.post(feedback('acme-co', 'app'), { body: 'x' }));
    });
  });

  describe('When the item itself refuses the text', () => {
    it('spends no item number on a body or title with control characters: the next item follows on', async () => {
      // spec Identifiers: an item key is the product key and "a positive integer"; submitFeedback:
      // "a refused submission writes nothing" — a NUL body used to be given a number first and
      // refused after, so the next item skipped keys (APP-1, then APP-5)
      const member = board.fb.api(board.member.token);
      const number = (res: { body: { itemId: string } }) => Number(res.body.itemId.split('-')[1]);
      const first = await member.post(feedback(), { body: 'numbered before' });
      expect(first.status).to.equal(200);
      for (const api of [member, outsider]) {
        expect400(await api.post(feedback(), { body: 'nul \u0000 inside' }));
        expect400(await api.post(feedback(), { body: 'bell', title: 'a\u0007b' }));
        expect400(await api.post(feedback(), { body: 'two lines', title: 'a\nb' }));
        expect400(await api.post(feedback(), { body: '\u200b\u200b' }));
      }
      const next = await member.post(feedback(), { body: 'numbered after' });
      expect(next.status).to.equal(200);
      expect(number(next)).to.equal(number(first) + 1);
    });

    it("spends none of an outsider's submissions on one the item refuses", async () => {
      // README: "a write refused (4xx) keeps nothing"; the capture box's buckets count filed
      // feedback — a NUL body was charged to the bucket before the item refused it
      const fb = await startFeedback({
        env: { CAPTURE_PERSON_BURST: '2', CAPTURE_PERSON_PER_HOUR: '2' },
      });
      try {
        const owner = await fb.createMaker('owner@bucket.io');
        const ws = await fb.createWorkspace(owner, { slug: 'bucket-co', name: 'Bucket' });
        await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
        const stranger = fb.api((await fb.createMaker('stranger@else.io')).token);
        const path = feedback('bucket-co');
        for (let i = 0; i < 3; i++) {
          expect400(await stranger.post(path, { body: `nul ${i} \u0000` }));
        }
        expect((await stranger.post(path, { body: 'first real one' })).status).to.equal(200);
        expect((await stranger.post(path, { body: 'second real one' })).status).to.equal(200);
      } finally {
        await fb.stop();
      }
    });
  });

  describe('When one caller submits too fast', () => {
    it('answers 429 resource-exhausted with Retry-After past the per-caller bucket, and accepts again once it refilled', async () => {
      // spec: "submit_feedback uses the same spam and rate-limit handling as the capture box";
      // issue 12 item 5: per-person and per-product token buckets, kept in the store
      const fb = await startFeedback({
        env: { CAPTURE_PERSON_BURST: '3', CAPTURE_PERSON_PER_HOUR: '6' },
      });
      try {
        const owner = await fb.createMaker('owner@tight.io');
        const ws = await fb.createWorkspace(owner, { slug: 'tight-co', name: 'Tight' });
        await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
        const burst = fb.api((await fb.createMaker('burst@else.io')).token);
        const other = fb.api((await fb.createMaker('other@else.io')).token);
        const path = feedback('tight-co');
        for (let i = 0; i < 3; i++) {
          expect((await burst.post(path, { body: `burst ${i}` })).status).to.equal(200);
        }
        const before = (await fb.api(owner.token).get(items('APP', 'tight-co'))).body.items.length;
        const refused = await burst.post(path, { body: 'one too many' });
        expectError(refused, 429, 'resource-exhausted');
        // one token every 3600 / 6 = 600 s
        expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 600);
        // nothing refused reaches the log
        const after = (await fb.api(owner.token).get(items('APP', 'tight-co'))).body.items.length;
        expect(after).to.equal(before);
        // another caller, and a member of the workspace, are not affected
        expect((await other.post(path, { body: 'still fine' })).status).to.equal(200);
        for (let i = 0; i < 5; i++) {
          const res = await fb.api(owner.token).post(path, { body: `maker ${i}` });
          expect(res.status).to.equal(200);
        }
        fb.clock.advance(600_000);
        expect((await burst.post(path, { body: 'later' })).status).to.equal(200);
      } finally {
        await fb.stop();
      }
    });
  });

  describe('When the same person sends the same body twice, or too many links', () => {
    it('answers the first item again instead of filing a second one', async () => {
      // issue 12 item 5: "the same body from the same visitor within 10 minutes is folded into the first item"
      const first = await outsider.post(feedback(), { body: 'Folded twice, please' });
      const second = await outsider.post(feedback(), { body: 'Folded twice, please' });
      expect(second.status).to.equal(200);
      expect(second.body.itemId).to.equal(first.body.itemId);
      board.fb.clock.advance(10 * 60_000 + 1);
      const later = await outsider.post(feedback(), { body: 'Folded twice, please' });
      expect(later.body.itemId).to.not.equal(first.body.itemId);
    });

    it('answers the first item as it stands: one already shipped is not called new', async () => {
      // found by the board model (test/feedback/model): a fold answered `status: new` whatever
      // the item's status, while get_item of the item it names said `shipped`
      const first = await owner.post(feedback(), { body: 'Folded into a shipped item' });
      const item = `${items('APP')}/${first.body.itemId}`;
      expect((await owner.post(`${item}/status`, { status: 'shipped' })).status).to.equal(200);
      const again = await owner.post(feedback(), { body: 'Folded into a shipped item' });
      expect(again.body).to.deep.equal({
        itemId: first.body.itemId,
        title: first.body.title,
        status: 'shipped',
      });
      expect((await owner.get(item)).body.item.status).to.equal(again.body.status);
    });

    it('answers the item a folded-into item was merged into with its own title and status', async () => {
      // board model note: a fold into a merged item named the survivor but gave the merged
      // item's title and status
      const first = await owner.post(feedback(), { body: 'Folded into a merged item' });
      const survivor = await owner.post(feedback(), {
        body: 'The item it was merged into',
        title: 'Survivor of the merge',
      });
      const kept = `${items('APP')}/${survivor.body.itemId}`;
      expect((await owner.post(`${kept}/status`, { status: 'planned' })).status).to.equal(200);
      const merged = await owner.post(`${kept}/merge`, { mergedKeys: [first.body.itemId] });
      expect(merged.status, JSON.stringify(merged.body)).to.equal(200);
      const again = await owner.post(feedback(), { body: 'Folded into a merged item' });
      expect(again.body).to.deep.equal({
        itemId: survivor.body.itemId,
        title: 'Survivor of the merge',
        status: 'planned',
      });
    });

    it('folds identical submissions sent at once as well: one item, every answer naming it', async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => owner.post(feedback(), { body: 'Sent six times at once' })),
      );
      expect(answers.map((answer) => answer.status)).to.eql([200, 200, 200, 200, 200, 200]);
      expect(new Set(answers.map((answer) => answer.body.itemId)).size).to.equal(1);
      const listed = await owner.get(`${items('APP')}?pageSize=100`);
      const filed = listed.body.items.filter(
        (item: { body: string }) => item.body === 'Sent six times at once',
      );
      expect(filed).to.have.length(1);
    });

    it('refuses more than CAPTURE_MAX_LINKS links with 400', async () => {
      // issue 12 item 5: "limits on links and length" (default 3 links)
      const links = [
        'https://a.example',
        'http://b.example',
        'www.c-example.com',
        'https://d.example',
      ];
      expect400(await outsider.post(feedback(), { body: links.join(' ') }));
      const three = await outsider.post(feedback(), { body: links.slice(0, 3).join(' ') });
      expect(three.status).to.equal(200);
    });
  });
});
