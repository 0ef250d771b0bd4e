/**
 * Searches are budgeted per caller (security audit: one account sending 20 searches at once
 * slowed every user's searches, in both services, from ~30 ms to 2.3 s — each query is embedded on
 * the one embedder thread of the process). README, configuration: SEARCHES_PER_CALLER_BURST
 * "searches one caller (account, token or app) may send at once", then
 * SEARCHES_PER_CALLER_PER_HOUR; past it 429 with Retry-After in the service's envelope.
 */
import { expect } from 'chai';
import {
  type FeedbackHarness,
  startFeedback,
  type TestClock,
} from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';

const BUDGET = { SEARCHES_PER_CALLER_BURST: '3', SEARCHES_PER_CALLER_PER_HOUR: '1' };

describe('Per-caller search budgets (e2e)', function () {
  this.timeout(60_000);

  describe('On the feedback board', () => {
    let fb: FeedbackHarness;
    before(async () => {
      fb = await startFeedback({ env: BUDGET });
    });
    after(() => fb.stop());

    it('answers 429 past the burst, to that account only, and only to its searches (items, people, summary)', async () => {
      const owner = await fb.createMaker('owner@acme.io', 'laptop');
      const member = await fb.createMaker('member@acme.io', 'cli');
      const ws = await fb.createWorkspace(owner, { slug: 'acme-co', name: 'Acme' });
      await fb.addMember(ws, member.userId, 'member');
      await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
      const search = '/v1/workspaces/acme-co/products/APP/items/search?q=dark%20mode';
      const people = '/v1/workspaces/acme-co/people/search?q=ann';
      const asOwner = fb.api(owner.token);
      const summary = '/v1/workspaces/acme-co/products/APP/summary?q=dark';
      expect((await asOwner.get(search)).status).to.equal(200);
      expect((await asOwner.get(people)).status).to.equal(200);
      expect((await asOwner.get(summary)).status).to.equal(200);
      const refused = await asOwner.get(people);
      expect(refused.status).to.equal(429);
      expect(refused.body.code).to.equal('resource-exhausted');
      expect(Number(refused.headers.get('retry-after'))).to.be.at.least(1);
      // another account searches on; the spent one still reads
      expect((await fb.api(member.token).get(search)).status).to.equal(200);
      expect((await asOwner.get('/v1/workspaces/acme-co/products/APP/items')).status).to.equal(200);
    });
  });

  // README: "a bucket of 30, refilled at 1,200 an hour": one search back every 3600/N seconds
  describe('When a spent budget refills (one search an hour, on a clock that stands still)', () => {
    let fb: FeedbackHarness;
    let at = Date.parse('2025-06-01T09:00:00Z');
    const clock: TestClock = { now: () => at, advance: (ms) => (at += ms) };
    before(async () => {
      fb = await startFeedback({
        env: { SEARCHES_PER_CALLER_BURST: '1', SEARCHES_PER_CALLER_PER_HOUR: '1' },
        clock,
      });
    });
    after(() => fb.stop());

    it('answers Retry-After of the full hour, refuses a millisecond before it and searches at it', async () => {
      const owner = await fb.createMaker('owner@acme.io', 'laptop');
      const ws = await fb.createWorkspace(owner, { slug: 'acme-co', name: 'Acme' });
      await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
      const search = () =>
        fb.api(owner.token).get('/v1/workspaces/acme-co/products/APP/items/search?q=dark');
      expect((await search()).status).to.equal(200);
      const refused = await search();
      expect(refused.status).to.equal(429);
      expect(refused.headers.get('retry-after')).to.equal('3600');
      clock.advance(3600_000 - 1);
      expect((await search()).status).to.equal(429);
      clock.advance(1);
      expect((await search()).status).to.equal(200);
    });

    it('takes nothing for a search refused 412 for its If-Match; a spent budget still answers 429 first', async () => {
      const member = await fb.createMaker('member@acme.io', 'cli');
      const ws = await fb.createWorkspace(member, { slug: 'beta-co', name: 'Beta' });
      await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
      const search = (headers: Record<string, string> = {}) =>
        fb.api(member.token).get('/v1/workspaces/beta-co/products/APP/items/search?q=dark', {
          headers,
        });
      for (let i = 0; i < 3; i++) {
        const refused = await search({ 'if-match': '"abc"' });
        expect(refused.status, JSON.stringify(refused.body)).to.equal(412);
      }
      expect((await search()).status).to.equal(200);
      const spent = await search({ 'if-match': '"abc"' });
      expect(spent.status, JSON.stringify(spent.body)).to.equal(429);
      expect(spent.body.code).to.equal('resource-exhausted');
    });
  });

  // RFC 9110 §13.1.2: If-None-Match `*` "is false if the origin server has a current
  // representation", so the GET answers 304; a search has no ETag, only `*` can match it, and it
  // matches whatever the search would find: the 304 is answered without running the search,
  // spending none of the budget (a spent one answers 429 as the search would, §13.2.1)
  describe('When a search is revalidated with If-None-Match: *', () => {
    let fb: FeedbackHarness;
    before(async () => {
      fb = await startFeedback({
        env: { SEARCHES_PER_CALLER_BURST: '1', SEARCHES_PER_CALLER_PER_HOUR: '1' },
      });
    });
    after(() => fb.stop());

    it('answers 304 without spending a search, 429 once the budget is spent; a tag list runs the search', async () => {
      const owner = await fb.createMaker('owner@acme.io', 'laptop');
      const ws = await fb.createWorkspace(owner, { slug: 'acme-co', name: 'Acme' });
      await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
      const search = (headers: Record<string, string> = {}) =>
        fb.api(owner.token).get('/v1/workspaces/acme-co/products/APP/items/search?q=dark', {
          headers,
        });
      for (let i = 0; i < 3; i++) {
        const revalidated = await search({ 'if-none-match': '*' });
        expect(revalidated.status, JSON.stringify(revalidated.body)).to.equal(304);
      }
      // a list of tags never matches a search's answer (it has none): the search runs, and counts
      expect((await search({ 'if-none-match': '"abc"' })).status).to.equal(200);
      const spent = await search({ 'if-none-match': '*' });
      expect(spent.status, JSON.stringify(spent.body)).to.equal(429);
      expect(spent.body.code).to.equal('resource-exhausted');
      expect(Number(spent.headers.get('retry-after'))).to.be.within(3590, 3600);
    });
  });

  describe('On the notes service', () => {
    let e: NotesE2e;
    before(async () => {
      e = await startNotesE2e(BUDGET);
    });
    after(() => e.stop());

    it('answers 429 past the burst, to that user only', async () => {
      const alice = e.api((await e.signIn('alice@example.com')).token);
      const bob = e.api((await e.signIn('bob@example.com')).token);
      for (let i = 0; i < 3; i++) {
        expect((await alice('GET', '/v1/notes/search?q=groceries')).status).to.equal(200);
      }
      const refused = await alice('GET', '/v1/notes/search?q=groceries');
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.at.least(1);
      expect((await bob('GET', '/v1/notes/search?q=groceries')).status).to.equal(200);
    });

    // RFC 9110 §13.1.1: a false If-Match means the server "MUST NOT perform the requested
    // method": a search refused 412 did not run, so it costs nothing; a spent budget answers 429
    // whatever the If-Match, as it would without it (§13.2.1)
    it('takes nothing for a search refused 412 for its If-Match, and answers 429 before 412 once spent', async () => {
      const carol = e.api((await e.signIn('carol@example.com')).token);
      const search = (headers?: Record<string, string>) =>
        carol('GET', '/v1/notes/search?q=groceries', undefined, headers);
      for (let i = 0; i < 5; i++)
        expect((await search({ 'if-match': '"1"' })).status).to.equal(412);
      for (let i = 0; i < 3; i++) expect((await search()).status).to.equal(200);
      const spent = await search({ 'if-match': '"1"' });
      expect(spent.status, spent.text).to.equal(429);
      expect(spent.body.error).to.contain('too many searches');
    });

    // RFC 9110 §9.3.2: HEAD is GET "except that the server MUST NOT send content"; the spec
    // declares the search as GET only, so HEAD is served, but without the search it would show:
    // it spends none of the caller's searches, and a spent budget answers its 429 as GET would
    it('takes nothing for a HEAD of the search, which answers 200 without a body, and 429 once spent', async () => {
      const dan = e.api((await e.signIn('dan@example.com')).token);
      const search = (method: string) => dan(method, '/v1/notes/search?q=groceries');
      for (let i = 0; i < 5; i++) {
        const head = await search('HEAD');
        expect(head.status, head.text).to.equal(200);
        expect(head.text).to.equal('');
        expect(head.headers.get('content-type')).to.contain('application/json');
      }
      // what GET refuses, HEAD refuses too
      expect((await dan('HEAD', '/v1/notes/search?q=&limit=99')).status).to.equal(400);
      for (let i = 0; i < 3; i++) expect((await search('GET')).status).to.equal(200);
      expect((await search('HEAD')).status).to.equal(429);
    });

    // RFC 9110 §13.1.2 (If-None-Match `*`, answered 304): as on the feedback board above
    it('takes nothing for a search answered 304 for If-None-Match: *, and answers 429 once spent', async () => {
      const erin = e.api((await e.signIn('erin@example.com')).token);
      const search = (headers?: Record<string, string>) =>
        erin('GET', '/v1/notes/search?q=groceries', undefined, headers);
      for (let i = 0; i < 5; i++) {
        const revalidated = await search({ 'if-none-match': '*' });
        expect(revalidated.status, revalidated.text).to.equal(304);
        expect(revalidated.text).to.equal('');
      }
      for (let i = 0; i < 3; i++) expect((await search()).status).to.equal(200);
      const spent = await search({ 'if-none-match': '*' });
      expect(spent.status, spent.text).to.equal(429);
      expect(spent.body.error).to.contain('too many searches');
    });
  });
});
