/**
 * If-Match on the notes reads that answer an ETag (get_note, get_tag, get_device), the order of
 * preconditions and the answer without them, and the one message every 412 of a resource with an
 * ETag gives, over real HTTP.
 *
 * RFC 9110 §13.1.1: "An origin server MUST NOT perform the requested method if a received
 * If-Match condition evaluates to false" (for every method), with strong comparison: a weak tag
 * never matches. §13.2.1: "A server MUST ignore all received preconditions if its response to the
 * same request without those conditions ... would have been a status code other than a 2xx
 * (Successful) or 412". §13.2.2: If-Match is evaluated before If-None-Match.
 */
import { expect } from 'chai';
import { type Api, signedInNotesApi } from './support.js';

/** the lifecycle's and the handler's 412 alike (src/http/etag.ts ifMatchRefused) for a stale tag */
const changed = (what: string, ifMatch: string, etag: string) =>
  `the ${what} has changed since it was read (If-Match ${ifMatch}, current ETag ${etag}); read it again`;

/**
 * the same for a tag the
 * resource never had (a revision it has not reached): not "changed since it was read"
 */
const notItsTag = (what: string, ifMatch: string, etag: string) =>
  `If-Match ${ifMatch} holds no entity tag of this ${what}, which is at revision 0 (current ETag ${etag}); send the ETag as read`;

describe('When a notes read that answers an ETag carries If-Match (e2e)', function () {
  this.timeout(30_000);
  const api = signedInNotesApi('iris@example.com');

  const created = async (path: string, body: unknown) => (await api('POST', path, body)).body;
  const etagOf = async (path: string) => (await api('GET', path)).headers.get('etag')!;

  /**
   * the same checks on each versioned read: `path` answers an ETag at revision 0; its 412 names
   * the `noun` the write 412s of that resource name (the operation's `resource`)
   */
  function refusesWhatDoesNotMatch(
    what: string,
    noun: string,
    pathOf: (api: Api) => Promise<string>,
  ) {
    let path: string;
    before(async () => {
      path = await pathOf(api);
    });

    it(`answers ${what} 412 for a tag that does not match, naming the ${noun} and its current ETag`, async () => {
      const etag = await etagOf(path);
      const refused = await api('GET', path, undefined, { 'if-match': '"999"' });
      expect(refused.status, refused.text).to.equal(412);
      expect(refused.body).to.deep.equal({ error: notItsTag(noun, '"999"', etag) });
    });

    it(`answers ${what} 200 for its current ETag, its revision alone, or *`, async () => {
      const etag = await etagOf(path);
      for (const ifMatch of [etag, '"0"', '0', '*', `"7", ${etag}`]) {
        const read = await api('GET', path, undefined, { 'if-match': ifMatch });
        expect(read.status, `${ifMatch}: ${read.text}`).to.equal(200);
        expect(read.headers.get('etag')).to.equal(etag);
      }
    });

    it(`refuses ${what} a weak tag naming its revision: If-Match compares strongly`, async () => {
      const etag = await etagOf(path);
      for (const ifMatch of [`W/${etag}`, 'W/"0"']) {
        const refused = await api('GET', path, undefined, { 'if-match': ifMatch });
        expect(refused.status, `${ifMatch}: ${refused.text}`).to.equal(412);
        // not "changed since it was read": reading again would give the same tag and the same 412
        expect(refused.body.error).to.equal(
          `If-Match ${ifMatch} names only weak tags, which never match (RFC 9110 §13.1.1 compares strongly); send the ETag as read, current ETag ${etag}`,
        );
      }
    });

    it(`still answers ${what} 304 for If-None-Match, after a matching If-Match`, async () => {
      const etag = await etagOf(path);
      const notModified = await api('GET', path, undefined, { 'if-none-match': etag });
      expect(notModified.status).to.equal(304);
      const both = await api('GET', path, undefined, { 'if-match': etag, 'if-none-match': etag });
      expect(both.status).to.equal(304);
      // §13.2.2: If-Match first; its 412 comes before a 304
      const refused = await api('GET', path, undefined, {
        'if-match': '"999"',
        'if-none-match': etag,
      });
      expect(refused.status).to.equal(412);
    });
  }

  describe('get_note', () => {
    refusesWhatDoesNotMatch('get_note', 'note', async () => {
      const note = await created('/v1/notes', { content: 'read me' });
      return `/v1/notes/${note.id}`;
    });
  });

  describe('get_tag', () => {
    refusesWhatDoesNotMatch('get_tag', 'tag', async () => {
      const tag = await created('/v1/tags', { name: 'reading' });
      return `/v1/tags/${tag.id}`;
    });
  });

  describe('get_device', () => {
    refusesWhatDoesNotMatch('get_device', 'device', async () => {
      const device = await created('/v1/devices', { name: 'Iris phone', platform: 'ios' });
      return `/v1/devices/${device.id}`;
    });
  });

  describe('When the resource does not exist (§13.2.1: the answer without the precondition wins)', () => {
    it('answers get_note 404, not 412', async () => {
      const missing = await api('GET', '/v1/notes/nt_missing', undefined, { 'if-match': '"0"' });
      expect(missing.status, missing.text).to.equal(404);
    });

    it('answers a write to a missing note 404 whatever its If-Match', async () => {
      for (const ifMatch of ['"0"', '*', '"0", "1"']) {
        const put = await api(
          'PUT',
          '/v1/notes/nt_missing',
          { content: 'x' },
          { 'if-match': ifMatch },
        );
        expect(put.status, `${ifMatch}: ${put.text}`).to.equal(404);
      }
    });

    it('answers get_note_history (no ETag) 404 for a missing note and 412 for an existing one', async () => {
      const missing = await api('GET', '/v1/notes/nt_missing/history', undefined, {
        'if-match': '"abc"',
      });
      expect(missing.status, missing.text).to.equal(404);
      const note = await created('/v1/notes', { content: 'with a past' });
      const refused = await api('GET', `/v1/notes/${note.id}/history`, undefined, {
        'if-match': '"abc"',
      });
      expect(refused.status, refused.text).to.equal(412);
    });
  });

  describe('When a write finds a later revision than its If-Match names', () => {
    it('names the current ETag exactly as GET sends it, in the words of every other 412', async () => {
      const note = await created('/v1/notes', { content: 'draft' });
      const path = `/v1/notes/${note.id}`;
      expect((await api('PUT', path, { content: 'mine' })).status).to.equal(200);
      const stale = await api('PUT', path, { content: 'theirs' }, { 'if-match': '"0"' });
      expect(stale.status, stale.text).to.equal(412);
      expect(stale.body).to.deep.equal({ error: changed('note', '"0"', await etagOf(path)) });
    });

    it('does so for a tag and a device too', async () => {
      const tag = await created('/v1/tags', { name: 'stale' });
      const tagPath = `/v1/tags/${tag.id}`;
      expect((await api('PUT', tagPath, { name: 'staler' })).status).to.equal(200);
      const staleTag = await api('PUT', tagPath, { name: 'stalest' }, { 'if-match': '"0"' });
      expect(staleTag.body).to.deep.equal({ error: changed('tag', '"0"', await etagOf(tagPath)) });
      const device = await created('/v1/devices', { name: 'Iris laptop', platform: 'web' });
      const devicePath = `/v1/devices/${device.id}`;
      expect((await api('PUT', devicePath, { name: 'Iris desk' })).status).to.equal(200);
      const staleDevice = await api('PUT', devicePath, { name: 'x' }, { 'if-match': '"0"' });
      expect(staleDevice.body).to.deep.equal({
        error: changed('device', '"0"', await etagOf(devicePath)),
      });
    });
  });
});
