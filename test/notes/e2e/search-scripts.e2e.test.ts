/**
 * Notes spec: search "drops weak matches, so an unrelated query returns an empty list". The
 * bundled encoder reads English: any two texts in a script it lacks got nearly the same vector,
 * so "квантовая физика" (quantum physics) found a shopping list at 0.94 (Unicode audit). Such a
 * query is ranked by its words (src/search/encoder-scripts.ts), which still find what holds them.
 */
import { expect } from 'chai';
import { type Api, createNotes, type NotesE2e, startNotesE2e, type Json } from './support.js';

const NOTES = [
  { title: 'Покупки', content: 'Купить молоко и хлеб' },
  { title: 'Врач', content: 'Встреча с врачом в пятницу' },
  { title: 'Δείπνο', content: 'Δείπνο με φίλους το Σάββατο' },
  { title: '买东西', content: '买牛奶和面包' },
];

describe('When a user searches notes written in other scripts than Latin', function () {
  this.timeout(60_000);
  let e: NotesE2e;
  let api: Api;
  let ids: Record<string, string>;
  const search = async (q: string) => {
    const res = await api('GET', `/v1/notes/search?q=${encodeURIComponent(q)}`);
    expect(res.status, res.text).to.equal(200);
    return (res.body.results as { note: Json; score: number }[]).map((r) => r.note.id);
  };

  before(async () => {
    e = await startNotesE2e();
    api = e.api((await e.signIn('polyglot@example.com')).token);
    const created = await createNotes(api, NOTES, 4);
    ids = Object.fromEntries(created.map((n) => [n.title, n.id]));
    await e.service.whenSearchIdle();
  });
  after(async () => e.stop());

  it('answers an unrelated query in such a script with an empty list', async () => {
    for (const query of ['квантовая физика', 'κβαντική φυσική', '猫', '天気予報']) {
      expect(await search(query), query).to.deep.equal([]);
    }
  });

  it('finds the note holding the words of the query', async () => {
    expect(await search('молоко')).to.deep.equal([ids.Покупки]);
    expect(await search('врачом пятницу')).to.deep.equal([ids.Врач]);
    expect(await search('牛奶')).to.deep.equal([ids.买东西]);
  });
});
