/**
 * Access is strictly per user: user B's token reaches nothing of user A's, and everything of A's
 * answers B exactly like something that does not exist.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { type Api, type NotesE2e, startNotesE2e, type Json } from './support.js';

describe('When two users share the notes service', function () {
  this.timeout(30_000);
  let e: NotesE2e;
  let a: Api;
  let b: Api;
  let note: Json;
  let tag: Json;
  let device: Json;

  before(async () => {
    e = await startNotesE2e();
    a = e.api((await e.signIn('alice@example.com')).token);
    b = e.api((await e.signIn('bob@example.com')).token);
    tag = (await a('POST', '/v1/tags', { name: 'Secret', color: 2 })).body;
    device = (await a('POST', '/v1/devices', { name: 'Alice phone', platform: 'android' })).body;
    note = (
      await a('POST', '/v1/notes', {
        title: 'Dentist',
        content: 'Appointment with Dr. Moreau on Tuesday 9:30, bring the insurance card',
        tags: ['Secret'],
        metadata: { device: 'Alice phone' },
      })
    ).body;
    await a('PUT', `/v1/notes/${note.id}`, { title: 'Dentist', content: 'moved to Wednesday' });
    await a('POST', '/v1/notes', { content: 'second note of alice' });
    await e.service.whenSearchIdle();
  });
  after(async () => e.stop());

  it('gives B an empty list, tag list, device list and sync feed', async () => {
    // spec: "a token reaches only the notes of the account that signed in to issue it"
    expect((await b('GET', '/v1/notes?includeDeleted=true')).body.notes).to.deep.equal([]);
    expect((await b('GET', '/v1/tags?includeDeleted=true')).body.tags).to.deep.equal([]);
    expect((await b('GET', '/v1/devices')).body.devices).to.deep.equal([]);
    const sync = (await b('GET', '/v1/sync')).body;
    expect(sync).to.include({ resyncRequired: false, hasMore: false });
    expect(sync.changes).to.deep.equal([]);
    // and A still sees their own
    expect((await a('GET', '/v1/notes')).body.notes).to.have.length(2);
  });

  it('answers B’s feed with "resync required" for a cursor A was given, skipping nothing', async () => {
    // sync_changes: "an older cursor, or one this feed did not issue to you, answers 200 with
    // resyncRequired: true". Sequence numbers are per user: A's cursor read as B's would
    // silently skip B's first changes.
    const fromA = (await a('GET', '/v1/sync?limit=1')).body;
    expect(fromA.changes).to.have.length(1);
    const first = await b('POST', '/v1/notes', { content: 'first note of bob' });
    const second = await b('POST', '/v1/notes', { content: 'second note of bob' });
    const answer = (await b('GET', `/v1/sync?cursor=${fromA.cursor}`)).body;
    expect(answer).to.include({ resyncRequired: true, reason: 'unknown' });
    // the cursor of that answer continues after B's own newest change
    const next = (await b('GET', `/v1/sync?cursor=${answer.cursor}`)).body;
    expect(next).to.include({ resyncRequired: false, hasMore: false });
    const all = (await b('GET', '/v1/sync')).body;
    expect(all.changes.map((c: Json) => c.noteId)).to.deep.equal([first.body.id, second.body.id]);
  });

  it('finds nothing of A in B’s search, even for A’s exact words', async () => {
    const mine = await a('GET', '/v1/notes/search?q=tooth%20doctor%20visit');
    expect(mine.body.results.map((r: Json) => r.note.id)).to.include(note.id);
    const theirs = await b('GET', '/v1/notes/search?q=moved%20to%20Wednesday');
    expect(theirs.status).to.equal(200);
    expect(theirs.body.results).to.deep.equal([]);
  });

  it('answers B about A’s note exactly as about a missing note', async () => {
    // issue 6: "another user's note, tag or device answers exactly like a missing one"
    const missing = randomUUID();
    const pairs: [string, string, unknown?][] = [
      ['GET', '/v1/notes/{id}'],
      ['GET', '/v1/notes/{id}/history'],
      ['PUT', '/v1/notes/{id}', { content: 'hijack' }],
      ['DELETE', '/v1/notes/{id}'],
      ['POST', '/v1/notes/{id}/restore'],
      ['POST', `/v1/notes/{id}/tags/${tag.id}`],
      ['DELETE', `/v1/notes/{id}/tags/${tag.id}`],
    ];
    for (const [method, template, body] of pairs) {
      const theirs = await b(method, template.replace('{id}', note.id), body);
      const none = await b(method, template.replace('{id}', missing), body);
      expect(theirs.status, `${method} ${template}`).to.equal(404);
      expect(theirs.body, `${method} ${template}`).to.deep.equal(none.body);
    }
    expect((await a('GET', `/v1/notes/${note.id}`)).body.content).to.equal('moved to Wednesday');
  });

  it('answers B about A’s tag and device exactly as about missing ones', async () => {
    const missing = randomUUID();
    const bNote = (await b('POST', '/v1/notes', { content: 'bob' })).body;
    const pairs: [string, string, unknown?][] = [
      ['GET', '/v1/tags/{id}'],
      ['PUT', '/v1/tags/{id}', { name: 'mine now' }],
      ['DELETE', '/v1/tags/{id}'],
      ['POST', `/v1/notes/${bNote.id}/tags/{id}`],
    ];
    for (const [method, template, body] of pairs) {
      const theirs = await b(method, template.replace('{id}', tag.id), body);
      const none = await b(method, template.replace('{id}', missing), body);
      expect(theirs.status, `${method} ${template}`).to.equal(404);
      expect(theirs.body).to.deep.equal(none.body);
    }
    for (const [method, body] of [['GET'], ['PUT', { name: 'stolen' }]] as const) {
      const theirs = await b(method, `/v1/devices/${device.id}`, body);
      const none = await b(method, `/v1/devices/${missing}`, body);
      expect(theirs.status, method).to.equal(404);
      expect(theirs.body).to.deep.equal(none.body);
    }
    expect((await a('GET', `/v1/tags/${tag.id}`)).body.name).to.equal('Secret');
    expect((await a('GET', `/v1/devices/${device.id}`)).body.name).to.equal('Alice phone');
  });

  it('refuses A’s page token in B’s hands (it is signed for A’s listing)', async () => {
    const page = (await a('GET', '/v1/notes?limit=1')).body;
    expect(page.nextPageToken).to.be.a('string');
    const stolen = await b('GET', `/v1/notes?limit=1&pageToken=${page.nextPageToken}`);
    expect(stolen.status).to.equal(400);
    const otherListing = await a(
      'GET',
      `/v1/notes?limit=1&includeDeleted=true&pageToken=${page.nextPageToken}`,
    );
    expect(otherListing.status).to.equal(400);
  });
});
