/**
 * If-Match over MCP (`_meta.ifMatch`) where a result carries an ETag, and where the call would
 * fail without the precondition, with the official SDK client over real HTTP. README: "Per-call
 * `_meta` carries what REST takes in headers", a failed call's "`_meta.status` the HTTP status
 * REST answers". RFC 9110 §13.1.1: "An origin server MUST NOT perform the requested method if a
 * received If-Match condition evaluates to false" (GET included); §13.2.1: preconditions are
 * ignored when the answer without them "would have been a status code other than a 2xx ... or 412".
 */
import { expect } from 'chai';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import {
  callTool,
  type Connected,
  connectMcp,
  envelopeOf,
  feedbackMcpWithItem,
} from './support.js';

describe('When an MCP tool call carries _meta.ifMatch (precedence and reads)', function () {
  this.timeout(120_000);

  describe('on the hosted feedback server', () => {
    const w = feedbackMcpWithItem();

    it('answers update_item_status on a missing item _meta.status 404, not 412', async () => {
      const missing = { ...w.args, itemKey: 'APP-999', status: 'planned' };
      const res = await callTool(w.mcp, 'update_item_status', missing, { ifMatch: '"abc"' });
      expect(res._meta?.status, JSON.stringify(res.content)).to.equal(404);
      expect(envelopeOf(res).code).to.equal('not-found');
    });

    it('answers it on the existing item 412 and writes nothing', async () => {
      const set = { ...w.args, status: 'planned' };
      const res = await callTool(w.mcp, 'update_item_status', set, { ifMatch: '"abc"' });
      expect(res._meta?.status).to.equal(412);
      const item = await callTool(w.mcp, 'get_item', w.args);
      expect((item.structuredContent as { item: { status: string } }).item.status).to.equal('new');
    });

    it('answers search_items of a missing product _meta.status 404, not 412', async () => {
      const search = { slug: w.owner.home.slug, key: 'NOPE', q: 'dark' };
      const res = await callTool(w.mcp, 'search_items', search, { ifMatch: '"abc"' });
      expect(res._meta?.status, JSON.stringify(res.content)).to.equal(404);
      expect(envelopeOf(res)).to.deep.equal({ error: 'product not found', code: 'not-found' });
    });

    it('answers merge_items with one missing duplicate _meta.status 404, merging nothing', async () => {
      const { itemKey: other } = await w.fb.submit(w.owner.home, 'APP', { body: 'Night theme' });
      const merge = { ...w.args, mergedKeys: [other, 'APP-999'] };
      const res = await callTool(w.mcp, 'merge_items', merge, { ifMatch: '"abc"' });
      expect(res._meta?.status, JSON.stringify(res.content)).to.equal(404);
      const read = await callTool(w.mcp, 'get_item', { ...w.args, itemKey: other });
      expect((read.structuredContent as { item: { status: string } }).item.status).to.equal('new');
    });
  });

  describe('on the hosted notes server', () => {
    let notes: NotesE2e;
    let mcp: Connected;
    let id: string;
    let tagId: string;
    before(async () => {
      notes = await startNotesE2e();
      const { token } = await notes.signIn('ann@example.com');
      id = (await notes.api(token)('POST', '/v1/notes', { content: 'read me' })).body.id;
      tagId = (await notes.api(token)('POST', '/v1/tags', { name: 'work' })).body.id;
      mcp = await connectMcp(`${notes.base}/mcp`, { token });
    });
    after(async () => {
      await mcp?.close();
      await notes?.stop();
    });

    it('answers get_note 412 for an ifMatch that does not match, naming its _meta.etag, and the result for its own', async () => {
      const read = await callTool(mcp, 'get_note', { id });
      const etag = read._meta?.etag as string;
      expect(etag).to.match(/^"0\./);
      const refused = await callTool(mcp, 'get_note', { id }, { ifMatch: '"999"' });
      expect(refused._meta?.status).to.equal(412);
      expect(envelopeOf(refused)).to.deep.equal({
        error: `_meta.ifMatch "999" holds no entity tag of this note, which is at revision 0 (current _meta.etag ${etag}); send a result's _meta.etag as it is`,
      });
      const matched = await callTool(mcp, 'get_note', { id }, { ifMatch: etag });
      expect(matched.isError, JSON.stringify(matched.content)).to.not.equal(true);
    });

    it('answers get_tag 412 for an ifMatch that does not match, naming its _meta.etag, and the tag for its own', async () => {
      const read = await callTool(mcp, 'get_tag', { id: tagId });
      const etag = read._meta?.etag as string;
      expect(etag, JSON.stringify(read.content)).to.match(/^"\d+/);
      const refused = await callTool(mcp, 'get_tag', { id: tagId }, { ifMatch: '"999"' });
      expect(refused._meta?.status).to.equal(412);
      expect(envelopeOf(refused)).to.deep.equal({
        error: `_meta.ifMatch "999" holds no entity tag of this tag, which is at revision 0 (current _meta.etag ${etag}); send a result's _meta.etag as it is`,
      });
      const matched = await callTool(mcp, 'get_tag', { id: tagId }, { ifMatch: etag });
      expect(matched.isError, JSON.stringify(matched.content)).to.not.equal(true);
    });

    it('answers get_note_history of a missing note 404 under an ifMatch that cannot hold', async () => {
      const res = await callTool(
        mcp,
        'get_note_history',
        { id: 'nt0missing' },
        { ifMatch: '"abc"' },
      );
      expect(res._meta?.status, JSON.stringify(res.content)).to.equal(404);
    });
  });
});
