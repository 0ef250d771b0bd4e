/**
 * If-None-Match on the writes of a resource with an ETag (a note, tag or device). RFC 9110
 * §13.1.2: "An origin server MUST NOT perform the requested method if the condition evaluates to
 * false; instead, the origin server MUST respond with ... 412 (Precondition Failed) for all other
 * request methods" than GET and HEAD. The condition is false when the field is `*` and the
 * resource exists, or when it lists the current ETag (weak comparison). §13.2.1: a request that
 * would fail without its preconditions (404) answers that instead.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { signedInNotesApi } from './support.js';

describe('When a write to a note, tag or device carries If-None-Match', function () {
  this.timeout(30_000);
  const api = signedInNotesApi();

  it('refuses a PUT with If-None-Match: * on an existing note with 412 and changes nothing', async () => {
    const note = (await api('POST', '/v1/notes', { content: 'first draft' })).body;
    const put = await api(
      'PUT',
      `/v1/notes/${note.id}`,
      { content: 'overwritten', tags: ['created-by-refused-put'] },
      { 'if-none-match': '*' },
    );
    expect(put.status, put.text).to.equal(412);
    expect(Object.keys(put.body)).to.deep.equal(['error']);
    const after = await api('GET', `/v1/notes/${note.id}`);
    expect(after.body).to.include({ content: 'first draft', revision: note.revision });
    // nothing the refused request named was created
    const tags = (await api('GET', '/v1/tags')).body.tags.map((t: { name: string }) => t.name);
    expect(tags).to.not.include('created-by-refused-put');
  });

  it('refuses a write whose If-None-Match lists the current ETag, weak or strong, and accepts another', async () => {
    const note = await api('POST', '/v1/notes', { content: 'kept' });
    const etag = note.headers.get('etag')!;
    const strong = await api('DELETE', `/v1/notes/${note.body.id}`, undefined, {
      'if-none-match': etag,
    });
    expect(strong.status, strong.text).to.equal(412);
    const weak = await api(
      'PUT',
      `/v1/notes/${note.body.id}`,
      { content: 'x' },
      {
        'if-none-match': `"0.old", W/${etag}`,
      },
    );
    expect(weak.status, weak.text).to.equal(412);
    expect((await api('GET', `/v1/notes/${note.body.id}`)).body).to.include({
      content: 'kept',
      deletedAt: null,
    });
    // a tag the note no longer has does not stop the write
    const other = await api(
      'PUT',
      `/v1/notes/${note.body.id}`,
      { content: 'changed' },
      {
        'if-none-match': '"0.stale"',
      },
    );
    expect(other.status, other.text).to.equal(200);
    expect(other.body.content).to.equal('changed');
  });

  it('refuses tag and device writes with If-None-Match: *, and their note-tag edits', async () => {
    const tag = (await api('POST', '/v1/tags', { name: 'inm-tag' })).body;
    const device = (await api('POST', '/v1/devices', { name: 'inm-phone', platform: 'ios' })).body;
    const note = (await api('POST', '/v1/notes', { content: 'tagged later' })).body;
    const star = { 'if-none-match': '*' };
    const refused = [
      await api('PUT', `/v1/tags/${tag.id}`, { name: 'renamed' }, star),
      await api('DELETE', `/v1/tags/${tag.id}`, undefined, star),
      await api('PUT', `/v1/devices/${device.id}`, { name: 'renamed' }, star),
      await api('POST', `/v1/notes/${note.id}/tags/${tag.id}`, undefined, star),
      await api('POST', `/v1/notes/${note.id}/restore`, undefined, star),
    ];
    expect(refused.map((r) => r.status)).to.deep.equal([412, 412, 412, 412, 412]);
    expect((await api('GET', `/v1/tags/${tag.id}`)).body).to.include({
      name: 'inm-tag',
      deletedAt: null,
    });
    expect((await api('GET', `/v1/devices/${device.id}`)).body.name).to.equal('inm-phone');
    expect((await api('GET', `/v1/notes/${note.id}`)).body.tags).to.deep.equal([]);
  });

  it('answers 404 for a missing note before looking at If-None-Match', async () => {
    const missing = await api(
      'PUT',
      `/v1/notes/${randomUUID()}`,
      { content: 'x' },
      {
        'if-none-match': '*',
      },
    );
    expect(missing.status).to.equal(404);
  });
});
