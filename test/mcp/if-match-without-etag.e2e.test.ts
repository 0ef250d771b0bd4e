/**
 * If-Match over MCP (`_meta.ifMatch`) on tools whose resource carries no ETag, with the official
 * SDK client over real HTTP. README: "Per-call `_meta` carries what REST takes in headers", and a
 * failed operation is an `isError` result with "`_meta.status` the HTTP status REST answers".
 * RFC 9110 §13.1.1: "An origin server MUST NOT perform the requested method if a received
 * If-Match condition evaluates to false"; with no entity tag only `*` holds.
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

const NO_ETAG =
  'this tool\'s results carry no _meta.etag, so _meta.ifMatch "999" cannot match (RFC 9110 §13.1.1); call the tool without _meta.ifMatch';

describe('When an MCP tool call without an ETag carries _meta.ifMatch', function () {
  this.timeout(120_000);

  describe('on the hosted feedback server', () => {
    const w = feedbackMcpWithItem();

    it('answers update_item_status an error result with _meta.status 412, as REST does, and writes nothing', async () => {
      const refused = await callTool(
        w.mcp,
        'update_item_status',
        { ...w.args, status: 'planned' },
        { ifMatch: '"999"' },
      );
      expect(refused.isError).to.equal(true);
      expect(refused._meta?.status).to.equal(412);
      expect(envelopeOf(refused)).to.deep.equal({ error: NO_ETAG, code: 'failed-precondition' });
      const item = await callTool(w.mcp, 'get_item', w.args);
      expect((item.structuredContent as { item: { status: string } }).item.status).to.equal('new');
    });

    it('names a long ifMatch cut between characters, never in half of an emoji', async () => {
      // README: "whatever the service cuts … is cut between characters"; no entity tag holds an
      // emoji (RFC 9110 §8.8.3), so it is refused as malformed, 400
      const refused = await callTool(w.mcp, 'get_item', w.args, {
        ifMatch: `"${'😀'.repeat(100)}"`,
      });
      expect(refused._meta?.status).to.equal(400);
      const { error } = envelopeOf(refused);
      expect(/\p{Cs}/u.test(error!), JSON.stringify(error)).to.equal(false);
      expect(error).to.contain(`_meta.ifMatch "${'😀'.repeat(63)}… holds no entity tag`);
    });

    it('performs the call under ifMatch *', async () => {
      const { itemKey } = await w.fb.submit(w.owner.home, 'APP', { body: 'Export to CSV' });
      const set = await callTool(
        w.mcp,
        'update_item_status',
        { ...w.args, itemKey, status: 'planned' },
        { ifMatch: '*' },
      );
      expect(set.isError, JSON.stringify(set.content)).to.not.equal(true);
      expect(set.structuredContent).to.deep.equal({ status: 'planned', changed: true });
    });
  });

  describe('on the hosted notes server', () => {
    let notes: NotesE2e;
    let mcp: Connected;
    before(async () => {
      notes = await startNotesE2e();
      const { token } = await notes.signIn('ann@example.com');
      mcp = await connectMcp(`${notes.base}/mcp`, { token });
    });
    after(async () => {
      await mcp?.close();
      await notes?.stop();
    });

    it('answers list_notes an error result with _meta.status 412 in the {error} envelope', async () => {
      const refused = await callTool(mcp, 'list_notes', {}, { ifMatch: '"999"' });
      expect(refused._meta?.status).to.equal(412);
      expect(envelopeOf(refused)).to.deep.equal({ error: NO_ETAG });
    });
  });
});
