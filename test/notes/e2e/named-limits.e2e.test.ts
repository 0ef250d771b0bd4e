/**
 * How many tags and devices one user may have. list_tags and list_devices answer every one at
 * once (the spec gives them no paging), so creation stops at a documented most instead:
 * NOTES_TAGS_PER_USER active tags and NOTES_DEVICES_PER_USER devices (README: "creating another,
 * by create_tag or by a note naming a new tag, answers 409 past it; deleted tags do not count").
 */
import { expect } from 'chai';
import { type Api, type NotesE2e, startNotesE2e } from './support.js';

describe('When a notes user reaches the most tags or devices an account may have', function () {
  this.timeout(60_000);
  let e: NotesE2e;
  let api: Api;
  before(async () => {
    e = await startNotesE2e({ NOTES_TAGS_PER_USER: '3', NOTES_DEVICES_PER_USER: '2' });
    api = e.api((await e.signIn('many@example.com')).token);
  });
  after(async () => e?.stop());

  it('refuses a fourth tag with 409 in the service envelope, by create_tag or by a note, until one is deleted', async () => {
    const tags = [];
    for (const name of ['One', 'Two', 'Three']) {
      const made = await api('POST', '/v1/tags', { name });
      expect(made.status, name).to.equal(201);
      tags.push(made.body);
    }
    const refusal = {
      error:
        'you have 3 tags, the most one account may have (NOTES_TAGS_PER_USER); delete one first',
    };
    const fourth = await api('POST', '/v1/tags', { name: 'Four' });
    expect(fourth.status).to.equal(409);
    expect(fourth.body).to.deep.equal(refusal);
    const before = (await api('GET', '/v1/notes')).body.notes.length;
    const note = await api('POST', '/v1/notes', { content: 'new tag', tags: ['Two', 'Four'] });
    expect(note.status).to.equal(409);
    expect(note.body).to.deep.equal(refusal);
    expect((await api('GET', '/v1/notes')).body.notes, 'no note made').to.have.length(before);
    // tags it has are named as before
    const tagged = await api('POST', '/v1/notes', { content: 'old tags', tags: ['one', 'Two'] });
    expect(tagged.status).to.equal(201);
    expect((await api('GET', '/v1/tags')).body.tags).to.have.length(3);
    // a deleted tag does not count
    expect((await api('DELETE', `/v1/tags/${tags[0].id}`)).status).to.equal(204);
    expect((await api('POST', '/v1/tags', { name: 'Four' })).status).to.equal(201);
    // another user's count is their own
    const other = e.api((await e.signIn('few@example.com')).token);
    expect((await other('POST', '/v1/tags', { name: 'Mine' })).status).to.equal(201);
  });

  it('refuses a third device with 409, by register_device or by a note, and still renames', async () => {
    const phone = await api('POST', '/v1/devices', { name: 'Phone', platform: 'ios' });
    expect(phone.status).to.equal(201);
    const byNote = await api('POST', '/v1/notes', {
      content: 'from the laptop',
      metadata: { device: 'Laptop' },
    });
    expect(byNote.status).to.equal(201);
    const refusal = {
      error: 'you have 2 devices, the most one account may have (NOTES_DEVICES_PER_USER)',
    };
    const third = await api('POST', '/v1/devices', { name: 'Tablet', platform: 'android' });
    expect(third.status).to.equal(409);
    expect(third.body).to.deep.equal(refusal);
    const note = await api('POST', '/v1/notes', { content: 'x', metadata: { device: 'Watch' } });
    expect(note.status).to.equal(409);
    expect(note.body).to.deep.equal(refusal);
    const known = await api('POST', '/v1/notes', { content: 'y', metadata: { device: 'phone' } });
    expect(known.status).to.equal(201);
    const renamed = await api('PUT', `/v1/devices/${phone.body.id}`, { name: 'Old phone' });
    expect(renamed.status).to.equal(200);
    expect((await api('GET', '/v1/devices')).body.devices).to.have.length(2);
  });
});
