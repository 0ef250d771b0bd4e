/**
 * `_meta.ifMatch` that is no entity tag of the note, through the official SDK client, on the
 * hosted notes server (Streamable HTTP) and the local one (stdio, forwarding to REST), and on the
 * hosted feedback server: each answers as REST does (README: a failed call's `_meta.status` is
 * "the HTTP status REST answers"). RFC 9110 §13.1.1 (`If-Match = "*" / #entity-tag`): a value
 * that lists no entity tag is a malformed request, 400; a well-formed tag that does not match
 * is 412, "changed since it was read" only for a revision the note has left behind.
 */
import { expect } from 'chai';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import {
  callTool,
  type Connected,
  connectLocal,
  connectMcp,
  envelopeOf,
  feedbackMcpWithItem,
} from './support.js';

const MALFORMED = (ifMatch: string, instead: string) =>
  `_meta.ifMatch ${ifMatch} holds no entity tag (RFC 9110 §8.8.3: each in double quotes, "3" or W/"3", comma-separated, or the field is *); ${instead}`;

describe('When an MCP tool call carries a _meta.ifMatch that is no tag of its resource', function () {
  this.timeout(120_000);

  describe('on the notes servers', () => {
    let notes: NotesE2e;
    const servers: Array<[string, Connected]> = [];
    before(async () => {
      notes = await startNotesE2e();
      const { token } = await notes.signIn('ned@example.com');
      servers.push(['hosted', await connectMcp(`${notes.base}/mcp`, { token })]);
      servers.push(['local', await connectLocal(notes.base, token)]);
    });
    after(async () => {
      for (const [, server] of servers) await server.close();
      await notes?.stop();
    });

    /** a note at revision 1 through `mcp`, and its id and _meta.etag */
    async function noteAtRevision1(mcp: Connected) {
      const made = await callTool(mcp, 'create_note', { content: 'first' });
      const id = (made.structuredContent as { id: string }).id;
      const put = await callTool(mcp, 'update_note', { id, content: 'kept' }, { ifMatch: '"0"' });
      expect(put.isError, JSON.stringify(put.content)).to.not.equal(true);
      return { id, etag: put._meta?.etag as string };
    }

    it('refuses a value that lists no entity tag with _meta.status 400, and writes nothing', async () => {
      for (const [name, mcp] of servers) {
        const { id } = await noteAtRevision1(mcp);
        for (const ifMatch of ['garbage', 'W/x', 'abc, "1"']) {
          const refused = await callTool(mcp, 'update_note', { id, content: 'lost' }, { ifMatch });
          expect(refused._meta?.status, `${name} ${ifMatch}`).to.equal(400);
          expect(envelopeOf(refused), `${name} ${ifMatch}`).to.deep.equal({
            error: MALFORMED(ifMatch, "send a result's _meta.etag as it is, or no _meta.ifMatch"),
          });
        }
        const read = await callTool(mcp, 'get_note', { id });
        expect(read.structuredContent, name).to.include({ content: 'kept', revision: 1 });
      }
    });

    it('answers 412 "holds no entity tag of this note" for a tag it never had, "changed" for a stale one', async () => {
      for (const [name, mcp] of servers) {
        const { id, etag } = await noteAtRevision1(mcp);
        for (const ifMatch of ['"draft"', '"7"']) {
          const refused = await callTool(mcp, 'update_note', { id, content: 'lost' }, { ifMatch });
          expect(refused._meta?.status, `${name} ${ifMatch}`).to.equal(412);
          expect(envelopeOf(refused), `${name} ${ifMatch}`).to.deep.equal({
            error: `_meta.ifMatch ${ifMatch} holds no entity tag of this note, which is at revision 1 (current _meta.etag ${etag}); send a result's _meta.etag as it is`,
          });
        }
        const stale = await callTool(
          mcp,
          'update_note',
          { id, content: 'lost' },
          { ifMatch: '"0"' },
        );
        expect(stale._meta?.status, name).to.equal(412);
        expect(envelopeOf(stale), name).to.deep.equal({
          error: `the note has changed since it was read (_meta.ifMatch "0", current _meta.etag ${etag}); read it again`,
        });
      }
    });
  });

  describe('on the hosted feedback server', () => {
    const w = feedbackMcpWithItem();

    it('refuses a value that lists no entity tag with _meta.status 400 invalid-argument', async () => {
      const refused = await callTool(
        w.mcp,
        'update_item_status',
        { ...w.args, status: 'planned' },
        { ifMatch: 'garbage' },
      );
      expect(refused._meta?.status).to.equal(400);
      expect(envelopeOf(refused)).to.deep.equal({
        error: MALFORMED(
          'garbage',
          "this tool's results carry no _meta.etag: call the tool without _meta.ifMatch",
        ),
        code: 'invalid-argument',
      });
    });
  });
});
