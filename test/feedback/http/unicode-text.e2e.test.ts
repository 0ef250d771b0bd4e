/**
 * Text from the world, over real HTTP (Unicode audit). The rules enforced:
 *  - README: "whatever the service cuts … is cut between characters": a title derived from a
 *    body of emoji never ends in half of a surrogate pair (which strict JSON readers refuse);
 *  - a name or body "must show a visible character": characters that render empty (a Hangul
 *    filler, a blank Braille pattern, a lone combining mark, a variation selector) are not one;
 *  - bidirectional controls (U+202A–U+202E, U+2066–U+2069) reorder the text shown after them:
 *    refused in names and titles, dropped from names learnt from submitters;
 *  - a tag is one tag however its text was composed (NFC) or spaced;
 *  - JSON is UTF-8 (RFC 8259 §8.1): a body declared in another charset, and a query string whose
 *    escapes are not UTF-8, are refused rather than read as something else.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

const PRODUCT = '/v1/workspaces/acme-co/products/APP';

describe('When text from the world reaches the feedback API (e2e)', () => {
  let fb: FeedbackHarness;
  let owner: Maker;
  before(async function () {
    this.timeout(60_000);
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io', 'laptop');
    const ws = await fb.createWorkspace(owner, { slug: 'acme-co', name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
  });
  after(() => fb.stop());
  const api = () => fb.api(owner.token);
  const file = (body: Record<string, unknown>) =>
    api().post('/v1/public/acme-co/APP/feedback', { email: 'ann@customer.io', ...body });

  it('derives a title from a body of emoji without cutting one in half', async () => {
    const filed = await file({ body: `a${'😀'.repeat(100)}` });
    expect(filed.status).to.equal(200);
    const { title } = (await api().get(`${PRODUCT}/items/${filed.body.itemId}`)).body.item;
    expect(/\p{Cs}/u.test(title), JSON.stringify(title)).to.equal(false);
    expect(title).to.match(/^a😀+…$/u);
  });

  it('refuses names and bodies that only look filled', async () => {
    for (const blank of ['\u3164', '\u2800\u2800', '\u034f\ufe0f', '\u0301']) {
      const res = await api().patch(PRODUCT, { name: blank });
      expect(res.status, JSON.stringify(blank)).to.equal(400);
      expect(res.body.error).to.contain('visible character');
      expect((await file({ body: blank })).status, JSON.stringify(blank)).to.equal(400);
    }
  });

  it('refuses a bidirectional control in a title and drops it from a submitter’s name', async () => {
    const refused = await file({ title: 'Export to PDF \u202eplease', body: 'x' });
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.contain('bidirectional control');
    const filed = await file({
      email: 'eve@example.com',
      displayName: '\u202eEve Adams',
      body: 'Export \u202eto PDF, please',
    });
    expect(filed.status).to.equal(200);
    expect(filed.body.title).to.equal('Export to PDF, please');
    const item = (await api().get(`${PRODUCT}/items/${filed.body.itemId}`)).body;
    expect(item.participants.map((p: { displayName: string }) => p.displayName)).to.deep.equal([
      'Eve Adams',
    ]);
  });

  it('takes "café" as one tag however it was composed, and finds it by either form', async () => {
    const filed = await file({ body: 'Menu is wrong' });
    const path = `${PRODUCT}/items/${filed.body.itemId}`;
    const tagged = await api().post(`${path}/tags`, {
      tagIds: ['caf\u00e9', 'cafe\u0301', ' ui', 'ui'],
    });
    expect(tagged.status).to.equal(200);
    expect(tagged.body.tagIds).to.deep.equal(['caf\u00e9', 'ui']);
    for (const tag of ['cafe%CC%81', 'caf%C3%A9', '%20ui']) {
      const listed = (await api().get(`${PRODUCT}/items?tag=${tag}`)).body.items;
      expect(
        listed.map((i: { id: string }) => i.id),
        tag,
      ).to.deep.equal([filed.body.itemId]);
    }
  });

  it('refuses a body declared in a charset other than UTF-8, and a query string that is not UTF-8', async () => {
    const utf16 = await api().post(`${PRODUCT}/items/APP-1/replies`, undefined, {
      raw: '{"body":"ok"}',
      headers: { 'content-type': 'application/json; charset=utf-16' },
    });
    // the feedback envelope answers an unsupported media type 400 (notes: 415)
    expect(utf16.status).to.equal(400);
    expect(utf16.body.error).to.contain('must be UTF-8');
    for (const query of ['q=%FF', 'q=caf%E9', 'q=%ED%A0%80']) {
      const res = await api().get(`${PRODUCT}/items/search?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error).to.contain('not valid UTF-8');
    }
    expect((await api().get(`${PRODUCT}/items?tag=%FF`)).status).to.equal(400);
    expect((await api().get(`${PRODUCT}/items/search?q=caf%C3%A9+100%25`)).status).to.equal(200);
  });
});
