/**
 * A field an operation does not take is refused, never dropped: a typo such as `parent_id` for
 * `parentId` once filed a threaded reply at the top level and answered 200, and `Publish: true`
 * left a changelog entry unpublished. README ("MCP"): "An argument the tool does not take is
 * refused"; a tool's spread body is decided by the operation's own body schema, as over REST, so
 * the rule holds for both when every JSON request body of both services is a closed object.
 */
import { expect } from 'chai';
import { type Board, expect400, item, startBoard } from '../feedback/triage/board.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';

type Schema = { $ref?: string; type?: string; additionalProperties?: unknown };
type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        requestBody?: { content: Record<string, { schema: Schema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
};

/** Operations whose JSON body is an object that lets unknown fields through. */
function openBodies(doc: Doc): string[] {
  const resolve = (schema: Schema): Schema =>
    schema.$ref ? resolve(doc.components?.schemas?.[schema.$ref.split('/').pop()!] ?? {}) : schema;
  const open: string[] = [];
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) {
      const schema = op.requestBody?.content['application/json']?.schema;
      if (!schema) continue;
      const body = resolve(schema);
      if (body.type === 'object' && body.additionalProperties !== false) open.push(op.operationId);
    }
  }
  return open;
}

/** The body fields of create_reply (spec 000) and create_note (spec 001), in schema order. */
const REPLY_FIELDS = 'body, parentId';
const NOTE_FIELDS = 'title, content, tags, metadata';
const METADATA_FIELDS = 'latitude, longitude, device';

describe('Unknown fields in request bodies (e2e)', () => {
  describe('feedback', () => {
    let board: Board;
    before(async () => {
      board = await startBoard();
      await board.fb.submit(board.ws, 'APP', { body: 'Dark mode please', email: 'ann@x.io' });
    });
    after(() => board.fb.stop());

    it('declares every JSON request body closed (additionalProperties: false)', async () => {
      const doc = (await board.fb.api().get('/v1/openapi.json')).body as Doc;
      expect(openBodies(doc)).to.deep.equal([]);
    });

    it('refuses a misspelled field with 400 naming it, and writes nothing', async () => {
      const api = board.fb.api(board.member.token);
      const replies = `${item('APP-1')}/replies`;
      const res = await api.post(replies, { body: 'threaded?', parent_id: 'r1' });
      expect400(res);
      expect(res.body.error).to.contain('parent_id');
      expect400(await api.post(`${item('APP-1')}/status`, { status: 'planned', Status: 'new' }));
      expect((await api.get(replies)).body.items).to.deep.equal([]);
      expect((await api.get(item('APP-1'))).body.item.status).to.equal('new');
    });

    it("names the fields the operation takes, as an unknown query parameter's refusal does", async () => {
      // README, Limits: "An unknown field of a body or an unknown query parameter is refused
      // (`400`, naming what the operation takes)"; a body said only "no other fields are allowed"
      const api = board.fb.api(board.member.token);
      const res = await api.post(`${item('APP-1')}/replies`, { body: 'x', parent_id: 'r1' });
      expect400(res);
      expect(res.body.error).to.equal(`unknown field "parent_id"; it takes ${REPLY_FIELDS}`);
      const query = await api.get(`${item('APP-1')}/replies?parent_id=r1`);
      expect400(query);
      expect(query.body.error).to.match(/^unknown query parameter "parent_id"; it takes /);
    });
  });

  describe('notes', () => {
    let notes: NotesE2e;
    before(async () => {
      notes = await startNotesE2e();
    });
    after(() => notes.stop());

    it('declares every JSON request body closed (additionalProperties: false)', async () => {
      const doc = (await (await fetch(`${notes.base}/docs/json`)).json()) as Doc;
      expect(openBodies(doc)).to.deep.equal([]);
    });

    it('names the fields the operation takes, also of a nested object', async () => {
      // README, Limits: "An unknown field of a body … is refused (`400`, naming what the
      // operation takes)"
      const api = notes.api((await notes.signIn('ada@example.com')).token);
      const top = await api('POST', '/v1/notes', { content: 'x', colour: 'red' });
      expect(top.status).to.equal(400);
      expect(top.body.error).to.equal(`unknown field "colour"; it takes ${NOTE_FIELDS}`);
      const nested = await api('POST', '/v1/notes', { content: 'x', metadata: { placeName: 'X' } });
      expect(nested.status).to.equal(400);
      expect(nested.body.error).to.equal(
        `unknown field "placeName" in metadata; metadata takes ${METADATA_FIELDS}`,
      );
    });

    it('refuses a field sent to a write that takes no body; none, empty and {} are accepted', async () => {
      // README, Limits: "A write that takes no body (… `restore_note`, every DELETE, …) refuses a
      // body with a field the same way (`unknown field "secret"; it takes none`) … No body, an
      // empty one and `{}` are accepted; a body that is not JSON is refused as a body of the
      // wrong media type is (notes `415` …)". `{"permanent": true}` deleted to the trash.
      const api = notes.api((await notes.signIn('ada@example.com')).token);
      const { id } = (await api('POST', '/v1/notes', { content: 'keep me' })).body;
      const permanent = await api('DELETE', `/v1/notes/${id}`, { permanent: true });
      expect(permanent.status).to.equal(400);
      expect(permanent.body).to.deep.equal({ error: 'unknown field "permanent"; it takes none' });
      const text = await api('DELETE', `/v1/notes/${id}`, 'permanent', {
        'content-type': 'text/plain',
      });
      expect(text.status).to.equal(415);
      expect((await api('GET', `/v1/notes/${id}`)).body.deletedAt, 'refused: not in the trash').to
        .be.null;
      expect((await api('DELETE', `/v1/notes/${id}`, {})).status).to.equal(204);

      const restore = await api('POST', `/v1/notes/${id}/restore`, { title: 'renamed' });
      expect(restore.status).to.equal(400);
      expect(restore.body.error).to.equal('unknown field "title"; it takes none');
      expect(
        (await api('GET', `/v1/notes/${id}`)).body.deletedAt,
        'refused: still trashed',
      ).to.be.a('string');
      expect((await api('POST', `/v1/notes/${id}/restore`, '')).status).to.equal(200);
      expect((await api('DELETE', `/v1/notes/${id}`)).status).to.equal(204);
    });
  });
});
