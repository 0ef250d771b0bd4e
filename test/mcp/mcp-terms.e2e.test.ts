/**
 * The three MCP servers speak to an assistant in MCP's terms, with the official SDK client: a
 * tool call passes `_meta.idempotencyKey` and `_meta.ifMatch` and reads `_meta.etag` off a result
 * (README: "Per-call `_meta` carries what REST takes in headers"); it sends no header and reads
 * none. So no tool description and no error result names a header — an assistant told to fix
 * its "If-Match header" cannot — while REST keeps its own words (OpenAPI and REST answers).
 */
import { expect } from 'chai';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import {
  callTool,
  type Connected,
  connectLocal,
  connectMcp,
  envelopeOf,
  feedbackMcpWithItem,
} from './support.js';

/** What a REST client sends or reads and a tool call cannot. */
const REST_HEADERS =
  /WWW-Authenticate|Idempotency-Key|If-Match|If-None-Match|ETag|Retry-After|Content-Type|Location/;

/** Tools whose description, or a description in their schemas, names a header. */
function headerNamers(tools: readonly Tool[]): string[] {
  return tools.flatMap((t) => {
    const read = [t.description ?? '', JSON.stringify([t.inputSchema, t.outputSchema ?? {}])];
    return read.flatMap((text, i) => {
      const named = REST_HEADERS.exec(text)?.[0];
      return named ? [`${t.name} ${i ? 'schema' : 'description'}: ${named}`] : [];
    });
  });
}

const descriptionOf = (tools: readonly Tool[], name: string) =>
  tools.find((t) => t.name === name)?.description ?? '';

describe('When an assistant reads the MCP servers, they speak in MCP terms', function () {
  this.timeout(120_000);

  describe('the hosted feedback server', () => {
    const w = feedbackMcpWithItem();

    it('describes no tool with a REST header; the access rule no longer ends on WWW-Authenticate, which OpenAPI keeps', async () => {
      const { tools } = await w.mcp.client.listTools();
      expect(tools.length).to.be.greaterThan(40);
      expect(headerNamers(tools), 'tools whose description names a header').to.deep.equal([]);
      expect(descriptionOf(tools, 'list_products')).to.include(
        'A `service.public`-scoped token gets 403.',
      );
      expect(descriptionOf(tools, 'submit_feedback')).to.include(
        'Send `_meta.idempotencyKey` to make a retry return the first item',
      );
      expect(descriptionOf(tools, 'send_test_webhook')).to.include(
        '429 `resource-exhausted` with `_meta.retryAfter` in seconds',
      );
      // a success's status is no part of a tool result
      expect(descriptionOf(tools, 'revoke_connected_app')).to.include(
        'changes nothing and answers with no content, so a retry is safe',
      );
      // REST's description is unchanged
      const rest = w.fb.app().http.openapi.paths?.['/v1/workspaces/{slug}/products']?.get as {
        description: string;
      };
      expect(rest.description).to.include(
        'A `service.public`-scoped token gets 403 with `WWW-Authenticate: Bearer error="insufficient_scope"`.',
      );
    });

    it('names _meta.idempotencyKey where REST names the Idempotency-Key header', async () => {
      const refused = await callTool(
        w.mcp,
        'update_item_status',
        { ...w.args, status: 'planned' },
        { idempotencyKey: 'two words' },
      );
      expect(envelopeOf(refused)).to.deep.equal({
        error: '_meta.idempotencyKey must be 1 to 255 visible ASCII characters',
        code: 'invalid-argument',
      });
      const rest = await w.fb
        .api(w.owner.token)
        .post(
          `/v1/workspaces/${w.args.slug}/products/APP/items/${w.args.itemKey}/status`,
          { status: 'planned' },
          { headers: { 'idempotency-key': 'two words' } },
        );
      expect(rest.body?.error).to.equal(
        'Idempotency-Key must be 1 to 255 visible ASCII characters',
      );
    });

    it('names _meta.idempotencyKey when a key is sent again with other arguments', async () => {
      const meta = { idempotencyKey: 'mcp-terms-status-1' };
      const first = await callTool(
        w.mcp,
        'update_item_status',
        { ...w.args, status: 'planned' },
        meta,
      );
      expect(first.isError, JSON.stringify(first.content)).to.not.equal(true);
      const again = await callTool(
        w.mcp,
        'update_item_status',
        { ...w.args, status: 'shipped' },
        meta,
      );
      expect(envelopeOf(again).error).to.equal(
        '_meta.idempotencyKey was already used for a different call (another tool or other arguments)',
      );
    });

    it('names _meta.ifMatch and _meta.etag where a tool has no ETag', async () => {
      const refused = await callTool(w.mcp, 'get_item', w.args, { ifMatch: '"999"' });
      expect(envelopeOf(refused).error).to.equal(
        `this tool's results carry no _meta.etag, so _meta.ifMatch "999" cannot match (RFC 9110 §13.1.1); call the tool without _meta.ifMatch`,
      );
    });
  });

  describe('the notes servers, hosted and local', () => {
    let notes: NotesE2e;
    let token: string;
    let hosted: Connected;
    let local: Connected;
    before(async () => {
      notes = await startNotesE2e({
        SEARCHES_PER_CALLER_BURST: '1',
        SEARCHES_PER_CALLER_PER_HOUR: '1',
      });
      ({ token } = await notes.signIn('ann@example.com'));
      hosted = await connectMcp(`${notes.base}/mcp`, { token });
      local = await connectLocal(notes.base, token);
    });
    after(async () => {
      await hosted?.close();
      await local?.close();
      await notes?.stop();
    });

    it('describes no tool with a REST header on either server', async () => {
      for (const server of [hosted, local]) {
        const { tools } = await server.client.listTools();
        expect(headerNamers(tools), 'tools whose description names a header').to.deep.equal([]);
        expect(descriptionOf(tools, 'update_note')).to.include(
          'Send `_meta.ifMatch` (the `_meta.etag` of an earlier result) to refuse a lost update (412).',
        );
        expect(descriptionOf(tools, 'delete_tag')).to.include(
          'Honours `_meta.ifMatch` (the `_meta.etag` of an earlier result).',
        );
        const note = (tools.find((t) => t.name === 'get_note')?.outputSchema ?? {}) as {
          properties?: { revision?: { description?: string } };
        };
        expect(note.properties?.revision?.description).to.equal(
          'the first part of the note\'s `_meta.etag` ("<revision>.<digest>"); `_meta.ifMatch` may name it alone ("<revision>")',
        );
        expect(server.client.getInstructions()).to.not.match(REST_HEADERS);
        if (server === local) {
          expect(descriptionOf(tools, 'sync_changes')).to.include(
            'answers with resyncRequired: true',
          );
        }
      }
    });

    it('answers a stale _meta.ifMatch naming _meta.ifMatch and _meta.etag, as REST names its headers', async () => {
      const api = notes.api(token);
      const { body: note } = await api('POST', '/v1/notes', { content: 'first' });
      await api('PUT', `/v1/notes/${note.id}`, { content: 'second' });
      const rest = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'x' },
        { 'if-match': '"0"' },
      );
      expect(rest.status).to.equal(412);
      const current =
        rest.headers.get('etag') ?? /current ETag ("[^"]+")/.exec(rest.body.error)?.[1];
      expect(rest.body.error).to.equal(
        `the note has changed since it was read (If-Match "0", current ETag ${current}); read it again`,
      );
      for (const server of [hosted, local]) {
        const refused = await callTool(
          server,
          'update_note',
          { id: note.id, content: 'x' },
          { ifMatch: '"0"' },
        );
        expect(refused._meta?.status).to.equal(412);
        expect(envelopeOf(refused)).to.deep.equal({
          error: `the note has changed since it was read (_meta.ifMatch "0", current _meta.etag ${current}); read it again`,
        });
      }
    });

    it('names _meta.idempotencyKey in a refused key and in a key sent again with other arguments', async () => {
      const rest = await notes.api(token)(
        'POST',
        '/v1/tags',
        { name: 'x' },
        { 'idempotency-key': 'two words' },
      );
      expect(rest.body.error).to.equal('Idempotency-Key must be 1 to 255 visible ASCII characters');
      for (const [i, server] of [hosted, local].entries()) {
        const refused = await callTool(
          server,
          'create_tag',
          { name: 'x' },
          { idempotencyKey: 'two words' },
        );
        expect(envelopeOf(refused).error).to.equal(
          '_meta.idempotencyKey must be 1 to 255 visible ASCII characters',
        );
        const meta = { idempotencyKey: `mcp-terms-tag-${i}` };
        const first = await callTool(server, 'create_tag', { name: `first ${i}` }, meta);
        expect(first.isError, JSON.stringify(first.content)).to.not.equal(true);
        const again = await callTool(server, 'create_tag', { name: `other ${i}` }, meta);
        expect(envelopeOf(again).error).to.equal(
          '_meta.idempotencyKey was already used for a different call (another tool or other arguments)',
        );
      }
    });

    it('refuses on the local server a _meta value no request can carry, naming the field alone', async () => {
      const refused = await callTool(local, 'get_note', { id: 'n1' }, { ifMatch: '"1\n2"' });
      expect(envelopeOf(refused)).to.deep.equal({
        error:
          '_meta.ifMatch cannot be sent to the service: it holds a line break, a NUL or a character above U+00FF',
      });
    });

    it('answers a spent budget with _meta.retryAfter, the seconds REST sends as Retry-After', async () => {
      for (const server of [hosted, local]) {
        const answers = [
          await callTool(server, 'search_notes', { q: 'first' }),
          await callTool(server, 'search_notes', { q: 'first' }),
        ];
        const refused = answers.find((a) => a.isError);
        expect(refused?._meta?.status, JSON.stringify(answers)).to.equal(429);
        expect(refused?._meta?.retryAfter).to.be.a('number').greaterThan(0);
      }
    });
  });
});
