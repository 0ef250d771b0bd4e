/**
 * README: "a retry with the same `Idempotency-Key` returns the first result … That holds for
 * every write", and "A notes write answers the note as that write left it, with that revision's
 * ETag". A client retries after a lost answer: it must get what the first attempt answered, also
 * when the resource changed since and when its If-Match named the revision before that write.
 */
import { expect } from 'chai';
import { type Api, etagAt, type NotesE2e, revisionIn, startNotesE2e } from './support.js';

describe('Notes writes retried with the same Idempotency-Key', function () {
  this.timeout(30_000);
  let e: NotesE2e;
  let api: Api;
  let n = 0;
  const key = () => `retry-${Date.now()}-${n++}`;

  before(async () => {
    e = await startNotesE2e();
    api = e.api((await e.signIn('rita@example.com')).token);
  });
  after(async () => e.stop());

  it('a PUT with If-Match answers its first result, not 412 for the revision it made itself', async () => {
    const note = (await api('POST', '/v1/notes', { content: 'zero' })).body;
    const put = { 'if-match': '"0"', 'idempotency-key': key() };
    const first = await api('PUT', `/v1/notes/${note.id}`, { content: 'one' }, put);
    expect(first.status).to.equal(200);
    expect(first.headers.get('etag')).to.match(etagAt(1));
    const again = await api('PUT', `/v1/notes/${note.id}`, { content: 'one' }, put);
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.headers.get('etag')).to.match(etagAt(1));
    expect(again.body.content).to.equal('one');
    // a different request under that key is still refused, and nothing was written twice
    const other = await api('PUT', `/v1/notes/${note.id}`, { content: 'two' }, put);
    expect(other.status).to.be.oneOf([409, 412]);
    expect((await api('GET', `/v1/notes/${note.id}/history`)).body.versions).to.have.length(1);
  });

  it('answers the note as the first attempt left it after another write followed', async () => {
    const headers = { 'idempotency-key': key() };
    const created = await api('POST', '/v1/notes', { content: 'first' }, headers);
    await api('PUT', `/v1/notes/${created.body.id}`, { content: 'second' });
    const again = await api('POST', '/v1/notes', { content: 'first' }, headers);
    expect(again.status).to.equal(201);
    expect(again.body.id).to.equal(created.body.id);
    expect(again.body.content).to.equal('first');
    expect(again.headers.get('etag')).to.match(etagAt(0));

    const put = { 'idempotency-key': key() };
    const edited = await api('PUT', `/v1/notes/${created.body.id}`, { content: 'third' }, put);
    await api('PUT', `/v1/notes/${created.body.id}`, { content: 'fourth' });
    const retried = await api('PUT', `/v1/notes/${created.body.id}`, { content: 'third' }, put);
    expect(retried.status).to.equal(200);
    expect(retried.body.content).to.equal('third');
    expect(retried.headers.get('etag')).to.equal(edited.headers.get('etag'));
  });

  it('answers a retry of a write that changed nothing as it was, not over a write since', async () => {
    // README: "a retry with the same Idempotency-Key returns the first result … That holds for
    // every write". An audit found a keyed write that changed nothing decided again on retry:
    // its PUT overwrote another device's edit, its tag add put back a tag removed since.
    const note = (await api('POST', '/v1/notes', { content: 'draft A' })).body;
    const put = { 'idempotency-key': key() };
    const first = await api('PUT', `/v1/notes/${note.id}`, { content: 'draft A' }, put);
    expect(first.status).to.equal(200);
    expect(first.headers.get('etag')).to.match(etagAt(0));
    await api('PUT', `/v1/notes/${note.id}`, { content: 'draft B' });
    const again = await api('PUT', `/v1/notes/${note.id}`, { content: 'draft A' }, put);
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.content).to.equal('draft A');
    expect(again.headers.get('etag')).to.equal(first.headers.get('etag'));
    expect((await api('GET', `/v1/notes/${note.id}`)).body.content).to.equal('draft B');
    const other = await api('PUT', `/v1/notes/${note.id}`, { content: 'draft C' }, put);
    expect(other.status).to.be.oneOf([409, 412]);
    expect((await api('GET', `/v1/notes/${note.id}`)).body.content).to.equal('draft B');

    const tag = (await api('POST', '/v1/tags', { name: `Kept ${n}` })).body;
    const tagged = `/v1/notes/${note.id}/tags/${tag.id}`;
    expect((await api('POST', tagged)).status).to.equal(200);
    const add = { 'idempotency-key': key() };
    expect((await api('POST', tagged, undefined, add)).status).to.equal(200);
    expect((await api('DELETE', tagged)).status).to.equal(204);
    expect((await api('POST', tagged, undefined, add)).status).to.equal(200);
    const now = (await api('GET', `/v1/notes/${note.id}`)).body;
    expect(now.tags.map((t: { id: string }) => t.id)).to.not.include(tag.id);
  });

  it('answers a tag or device as the first attempt left it after a rename', async () => {
    for (const [path, body, renamed] of [
      ['/v1/tags', { name: 'Errands' }, { name: 'Chores' }],
      ['/v1/devices', { name: 'Pixel', platform: 'android' }, { name: 'Old Pixel' }],
    ] as const) {
      const headers = { 'idempotency-key': key() };
      const first = await api('POST', path, body, headers);
      expect(first.status).to.equal(201);
      const rename = await api('PUT', `${path}/${first.body.id}`, renamed);
      expect(rename.status, JSON.stringify(rename.body)).to.equal(200);
      const again = await api('POST', path, body, headers);
      expect(again.status, path).to.equal(201);
      expect(again.body, path).to.deep.equal(first.body);
      expect(again.headers.get('etag'), path).to.equal(first.headers.get('etag'));
    }
  });

  it('answers a note write as first left when its tag and device were renamed since', async () => {
    // notes audit: the retry created a new "Work" tag and "Desk" device by those names, then got
    // 409 because the resolved tag ids no longer matched the first attempt's
    const fields = { content: 'plan', tags: ['Work'], metadata: { device: 'Desk' } };
    const createKey = { 'idempotency-key': key() };
    const created = await api('POST', '/v1/notes', fields, createKey);
    expect(created.status).to.equal(201);
    const putKey = { 'idempotency-key': key() };
    const edited = await api(
      'PUT',
      `/v1/notes/${created.body.id}`,
      { ...fields, title: 'Q3' },
      putKey,
    );
    expect(edited.status).to.equal(200);
    const tagId = created.body.tags[0].id as string;
    expect((await api('PUT', `/v1/tags/${tagId}`, { name: 'Job' })).status).to.equal(200);
    const devices = (await api('GET', '/v1/devices')).body.devices as {
      id: string;
      name: string;
    }[];
    const desk = devices.find((d) => d.name === 'Desk');
    expect((await api('PUT', `/v1/devices/${desk?.id}`, { name: 'Desktop' })).status).to.equal(200);

    const again = await api('POST', '/v1/notes', fields, createKey);
    expect(again.status, JSON.stringify(again.body)).to.equal(201);
    expect(again.body.id).to.equal(created.body.id);
    const retried = await api(
      'PUT',
      `/v1/notes/${created.body.id}`,
      { ...fields, title: 'Q3' },
      putKey,
    );
    expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
    // the same revision; its digest follows the names the note shows now (the renames)
    expect(revisionIn(retried.headers.get('etag'))).to.equal(
      revisionIn(edited.headers.get('etag')),
    );
    // nothing was created by the retries' names
    const after = (await api('GET', '/v1/tags')).body.tags as { name: string }[];
    expect(after.map((t) => t.name))
      .to.include('Job')
      .and.not.include('Work');
    const renamed = (await api('GET', '/v1/devices')).body.devices as { name: string }[];
    expect(renamed.map((d) => d.name))
      .to.include('Desktop')
      .and.not.include('Desk');
  });

  it('answers a write whose If-Match was `*` or a list as its first attempt, not 412', async () => {
    // README: a retry "answers the same, also when its `If-Match` named the revision before its
    // first attempt". The model test (test/notes/model) found `*` and lists compared by the
    // revision they resolved to, which the first attempt's own write had moved.
    const note = (await api('POST', '/v1/notes', { content: 'star' })).body;
    const tag = (await api('POST', '/v1/tags', { name: `Starred ${n}` })).body;
    const path = `/v1/notes/${note.id}`;
    const writes = [
      ['PUT', path, { content: 'star, edited' }, '*'],
      ['POST', `${path}/tags/${tag.id}`, undefined, '"0", "1"'],
      ['DELETE', `${path}/tags/${tag.id}`, undefined, '*'],
      ['PUT', `/v1/tags/${tag.id}`, { name: `Starred ${n} again` }, '"0", "7"'],
    ] as const;
    for (const [method, url, body, ifMatch] of writes) {
      const headers = { 'if-match': ifMatch, 'idempotency-key': key() };
      const first = await api(method, url, body, headers);
      expect(first.status, `${method} ${url}: ${first.text}`).to.be.oneOf([200, 204]);
      const again = await api(method, url, body, headers);
      expect(again.status, `${method} ${url} again: ${again.text}`).to.equal(first.status);
      expect(again.headers.get('etag'), `${method} ${url}`).to.equal(first.headers.get('etag'));
    }
    expect((await api('GET', path)).body.revision).to.equal(3);
    expect((await api('GET', `${path}/history`)).body.versions).to.have.length(1);
  });

  it('answers a tag add as its first attempt after the tag was deleted, not 412', async () => {
    // README: "a retry is compared with its first attempt by what the client sent": whether the
    // tag was deleted since is not something the client sent
    const note = (await api('POST', '/v1/notes', { content: 'tagged, then the tag went' })).body;
    const tag = (await api('POST', '/v1/tags', { name: `Fleeting ${n}` })).body;
    const tagged = `/v1/notes/${note.id}/tags/${tag.id}`;
    const headers = { 'idempotency-key': key() };
    const first = await api('POST', tagged, undefined, headers);
    expect(first.status).to.equal(200);
    expect((await api('DELETE', `/v1/tags/${tag.id}`)).status).to.equal(204);
    const again = await api('POST', tagged, undefined, headers);
    expect(again.status, again.text).to.equal(200);
    expect(again.body.revision).to.equal(first.body.revision);
  });
});
