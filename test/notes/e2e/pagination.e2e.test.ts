/**
 * Walking the note list page by page over HTTP: 500 notes, limit 7, every active note exactly
 * once in "most recently updated first" order; includeDeleted adds the trashed ones.
 */
import { expect } from 'chai';
import { type Api, createNotes, type NotesE2e, startNotesE2e, type Json } from './support.js';

const TOTAL = 500;
const TRASHED = 40;

describe('When a user pages through 500 notes seven at a time', function () {
  this.timeout(120_000);
  let e: NotesE2e;
  let api: Api;
  let created: Json[];
  let trashed: Set<string>;

  async function walk(query: string) {
    const seen: Json[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const tokenPart: string = token ? `&pageToken=${encodeURIComponent(token)}` : '';
      const res = await api('GET', `/v1/notes?limit=7${query}${tokenPart}`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.notes.length).to.be.at.most(7);
      seen.push(...res.body.notes);
      token = res.body.nextPageToken;
      pages++;
    } while (token && pages < 200);
    return { seen, pages };
  }

  before(async () => {
    e = await startNotesE2e();
    api = e.api((await e.signIn('pager@example.com')).token);
    created = await createNotes(
      api,
      Array.from({ length: TOTAL }, (_, i) => ({ content: `note number ${i}` })),
    );
    trashed = new Set(
      created
        .slice(0, TRASHED * 5)
        .filter((_, i) => i % 5 === 0)
        .map((n) => n.id),
    );
    for (const id of trashed) {
      expect((await api('DELETE', `/v1/notes/${id}`)).status).to.equal(204);
    }
  });
  after(async () => e.stop());

  it('returns every active note exactly once, most recently updated first', async () => {
    // spec: "limit (integer 1 to 100, default 20) ... paginated with nextPageToken"
    const { seen, pages } = await walk('');
    const ids = seen.map((n) => n.id);
    expect(new Set(ids).size).to.equal(ids.length);
    const active = created.map((n) => n.id).filter((id) => !trashed.has(id));
    expect(ids).to.have.members(active);
    expect(pages).to.equal(Math.ceil(active.length / 7));
    const times = seen.map((n) => n.updatedAt);
    expect(times).to.deep.equal([...times].sort().reverse());
  });

  it('adds the trashed notes with includeDeleted', async () => {
    const { seen } = await walk('&includeDeleted=true');
    const ids = seen.map((n) => n.id);
    expect(new Set(ids).size).to.equal(TOTAL);
    expect(ids).to.have.members(created.map((n) => n.id));
    const flagged = seen.filter((n) => n.deletedAt !== null).map((n) => n.id);
    expect(flagged).to.have.members([...trashed]);
  });

  it('refuses an edited page token with 400', async () => {
    const first = (await api('GET', '/v1/notes?limit=7')).body.nextPageToken as string;
    const [payload, signature] = first.split('.');
    const edited = `${payload}A.${signature}`;
    const res = await api('GET', `/v1/notes?limit=7&pageToken=${encodeURIComponent(edited)}`);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.match(/pageToken/);
  });
});
