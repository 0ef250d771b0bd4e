/**
 * The notes API end to end over real HTTP: If-Match on writes, If-None-Match on reads, and
 * the ETag each of many concurrent replaces answers with.
 */
import { expect } from 'chai';
import { etagAt, revisionIn, signedInNotesApi } from './support.js';

describe('Notes API over HTTP', function () {
  this.timeout(30_000);
  const api = signedInNotesApi();

  describe('When two clients edit the same note', () => {
    it('refuses the stale If-Match with 412 and accepts the current one', async () => {
      const note = (await api('POST', '/v1/notes', { content: 'draft' })).body;
      const etag = `"${note.revision}"`;
      const winner = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'mine' },
        { 'if-match': etag },
      );
      expect(winner.status).to.equal(200);
      const loser = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'theirs' },
        { 'if-match': etag },
      );
      expect(loser.status).to.equal(412);
      expect(Object.keys(loser.body)).to.deep.equal(['error']);
      const staleDelete = await api('DELETE', `/v1/notes/${note.id}`, undefined, {
        'if-match': etag,
      });
      expect(staleDelete.status).to.equal(412);
      const notATag = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'x' },
        { 'if-match': 'W/"1"' },
      );
      expect(notATag.status).to.equal(412);
      const star = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'star' },
        { 'if-match': '*' },
      );
      expect(star.status).to.equal(200);
      expect((await api('GET', `/v1/notes/${note.id}`)).body.content).to.equal('star');
      // the current tag without its quotes is that tag, not "changed since it was read"
      const current = (await api('GET', `/v1/notes/${note.id}`)).headers.get('etag')!;
      const unquoted = current.replaceAll('"', '');
      const bare = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'bare' },
        { 'if-match': unquoted },
      );
      expect(bare.status, JSON.stringify(bare.body)).to.equal(200);
      const staleBare = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'stale' },
        { 'if-match': unquoted },
      );
      expect(staleBare.status).to.equal(412);
      const listed = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'list' },
        {
          'if-match': `"999", ${Number(revisionIn(`"${unquoted}"`)) + 1}`,
        },
      );
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
    });
  });

  describe('When a client reads again with If-None-Match', () => {
    it('answers 304 without a body while the ETag holds, and the note once it changed', async () => {
      // RFC 9110 §13.1.2: an origin server evaluates If-None-Match; GET/HEAD get 304 (notes audit)
      const created = await api('POST', '/v1/notes', { content: 'cached' });
      const note = created.body;
      const path = `/v1/notes/${note.id}`;
      const tag = created.headers.get('etag')!;
      for (const header of [tag, `W/${tag}`, `"7", ${tag}`, '*']) {
        const same = await api('GET', path, undefined, { 'if-none-match': header });
        expect(same.status, header).to.equal(304);
        expect(same.text, header).to.equal('');
        expect(same.headers.get('etag')).to.equal(tag);
      }
      const head = await api('HEAD', path, undefined, { 'if-none-match': tag });
      expect(head.status).to.equal(304);
      const other = await api('GET', path, undefined, { 'if-none-match': '"999"' });
      expect(other.status).to.equal(200);
      expect(other.body.content).to.equal('cached');
      await api('PUT', path, { content: 'changed' });
      const changed = await api('GET', path, undefined, { 'if-none-match': tag });
      expect(changed.status).to.equal(200);
      expect(changed.body.content).to.equal('changed');
    });

    // DX audit: the note shows its tags' and device's names, which change without a new
    // revision of the note; a 304 kept the old names in the client's cache (RFC 9110 §8.8.1:
    // a validator changes whenever the representation does)
    it('answers the note again once a tag or device it shows was renamed, at the same revision', async () => {
      const created = await api('POST', '/v1/notes', {
        content: 'tagged',
        tags: ['etag-tag'],
        metadata: { device: 'etag-device' },
      });
      const path = `/v1/notes/${created.body.id}`;
      const first = created.headers.get('etag')!;
      expect((await api('GET', path, undefined, { 'if-none-match': first })).status).to.equal(304);
      await api('PUT', `/v1/tags/${created.body.tags[0].id}`, { name: 'etag-renamed' });
      const renamed = await api('GET', path, undefined, { 'if-none-match': first });
      expect(renamed.status).to.equal(200);
      expect(renamed.body.tags[0].name).to.equal('etag-renamed');
      expect(revisionIn(renamed.headers.get('etag'))).to.equal(revisionIn(first));
      const devices = (await api('GET', '/v1/devices')).body.devices as {
        id: string;
        name: string;
      }[];
      const device = devices.find((d) => d.name === 'etag-device')!;
      await api('PUT', `/v1/devices/${device.id}`, { name: 'etag-device-2' });
      const moved = await api('GET', path, undefined, {
        'if-none-match': renamed.headers.get('etag')!,
      });
      expect(moved.status).to.equal(200);
      // If-Match guards the note's own content: the rename does not make the first ETag stale
      const edited = await api('PUT', path, { content: 'edited' }, { 'if-match': first });
      expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    });
  });

  describe('When many clients replace the same note at once, without If-Match', () => {
    it('answers each with the note as its own write left it, and that revision as the ETag', async () => {
      // RFC 9110 §8.8.3: a validator sent with a write's answer reflects what that write saved;
      // answering the note as a later write left it gave one client another's title and ETag
      const note = (await api('POST', '/v1/notes', { content: 'start' })).body;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api('PUT', `/v1/notes/${note.id}`, { title: `C${i}`, content: `content ${i}` }),
        ),
      );
      const revisions = new Set<number>();
      for (const [i, res] of answers.entries()) {
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.include({ title: `C${i}`, content: `content ${i}` });
        expect(res.headers.get('etag')).to.match(etagAt(res.body.revision));
        revisions.add(res.body.revision);
      }
      expect(revisions.size).to.equal(20);
      // each answer is the version history keeps for that revision (or the current note)
      const current = (await api('GET', `/v1/notes/${note.id}`)).body;
      const history = (await api('GET', `/v1/notes/${note.id}/history`)).body.versions as {
        revision: number;
        title: string;
      }[];
      for (const res of answers) {
        const kept =
          res.body.revision === current.revision
            ? current
            : history.find((v) => v.revision === res.body.revision);
        expect(kept?.title, `revision ${res.body.revision}`).to.equal(res.body.title);
      }
    });
  });
});
