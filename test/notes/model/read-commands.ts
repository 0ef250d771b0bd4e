/**
 * The reads of the model-based test, each compared with the whole model: the list (spec: "most
 * recently updated first; paginated with `nextPageToken`"), history ("archived versions, newest
 * first"), the sync feed per device (every change once, in order, trashes included), search by
 * a word right after the write (README: "found by its words in the very next request"; in split
 * mode "from the first search that starts after the reload, not at once"), tags and devices.
 */
import { expect } from 'chai';
import type { AsyncCommand } from 'fast-check';
import type { Api } from '../e2e/support.js';
import { expectStatus, type Json, pick } from './checks.js';
import type { NotesModel, Real } from './model.js';
import { SPLIT } from './split.js';

type Cmd = AsyncCommand<NotesModel, Real>;

/** Every page of a paginated read, following `next(body)` until it says there is no more. */
async function walk(
  api: Api,
  first: string,
  items: (b: Json) => Json[],
  next: (b: Json) => string | null,
) {
  const all: Json[] = [];
  let path: string | null = first;
  for (let pages = 0; path !== null; pages++) {
    expect(pages, `pages of ${first}`).to.be.below(200);
    const res = await api('GET', path);
    expectStatus(res, 200, `GET ${path}`);
    all.push(...items(res.body));
    path = next(res.body);
  }
  return all;
}

const withToken = (path: string, token: string | null) =>
  token === null ? null : `${path}&pageToken=${encodeURIComponent(token)}`;

export class ListNotes implements Cmd {
  constructor(
    readonly limit: number,
    readonly includeDeleted: boolean,
    readonly by: number,
  ) {}
  check = () => true;
  async run(model: NotesModel, real: Real) {
    const path = `/v1/notes?limit=${this.limit}${this.includeDeleted ? '&includeDeleted=true' : ''}`;
    const api = real.apis[this.by % real.apis.length]!;
    const listed = await walk(
      api,
      path,
      (b) => b.notes,
      (b) => withToken(path, b.nextPageToken),
    );
    const expected = model.listed(this.includeDeleted);
    const ids = (notes: { id: string }[]) => notes.map((n) => n.id).sort();
    expect(ids(listed), `the notes of ${path}`).to.deep.equal(ids(expected));
    for (const n of listed) model.expectNote(n, model.note(n.id), `listed ${n.id}`);
    // newest first: a later change never lists after an earlier one, ties (same ms) by id
    const at = (n: Json) => Date.parse(n.updatedAt);
    listed.forEach((a, i) => {
      const b = listed[i + 1];
      if (b)
        expect(at(a) > at(b) || (at(a) === at(b) && a.id > b.id), `order at ${i}`).to.equal(true);
      for (const later of listed.slice(i + 1)) {
        if (model.note(later.id).touched > model.note(a.id).touched) {
          expect(at(a), `${a.id} changed before ${later.id}`).to.equal(at(later));
        }
      }
    });
  }
  toString = () => `list(limit ${this.limit}${this.includeDeleted ? ', with trash' : ''})`;
}

export class GetNote implements Cmd {
  constructor(
    readonly at: number,
    readonly by: number,
  ) {}
  check = (m: Readonly<NotesModel>) => m.notes.length > 0;
  async run(model: NotesModel, real: Real) {
    const note = pick(model.notes, this.at);
    const res = await real.apis[this.by % real.apis.length]!('GET', `/v1/notes/${note.id}`);
    expectStatus(res, 200, `GET note ${note.id}`);
    model.expectNote(res.body, note);
  }
  toString = () => `get(#${this.at})`;
}

export class History implements Cmd {
  constructor(
    readonly at: number,
    readonly limit: number,
  ) {}
  check = (m: Readonly<NotesModel>) => m.notes.length > 0;
  async run(model: NotesModel, real: Real) {
    const note = pick(model.notes, this.at);
    const path = `/v1/notes/${note.id}/history?limit=${this.limit}`;
    const versions = await walk(
      real.apis[0]!,
      path,
      (b) => b.versions,
      (b) => withToken(path, b.nextPageToken),
    );
    const expected = [...note.archived].reverse();
    expect(
      versions.map((v) => v.revision),
      `revisions of ${path}`,
    ).to.deep.equal(expected.map((v) => v.revision));
    for (const [i, v] of versions.entries()) {
      model.expectVersion(v, expected[i]!, `version ${v.revision} of ${note.id}`);
    }
  }
  toString = () => `history(#${this.at}, limit ${this.limit})`;
}

export class Sync implements Cmd {
  constructor(
    readonly client: number,
    readonly limit: number,
  ) {}
  check = () => true;
  async run(model: NotesModel, real: Real) {
    const i = this.client % model.clients.length;
    const client = model.clients[i]!;
    const changes: Json[] = [];
    let cursor = client.cursor;
    for (let more = true, pages = 0; more; pages++) {
      expect(pages, 'sync pages').to.be.below(500);
      const query = `limit=${this.limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await real.apis[i]!('GET', `/v1/sync?${query}`);
      expectStatus(res, 200, `device ${i} GET /v1/sync`);
      expect(res.body.resyncRequired, 'resync asked of a device that follows the feed').to.equal(
        false,
      );
      changes.push(...res.body.changes);
      cursor = res.body.cursor;
      more = res.body.hasMore;
    }
    const what = `changes device ${i} sees after ${client.seen}`;
    // the feed carries tags' and devices' changes too (README); the model follows the notes'
    const seqs = changes.map((c) => c.seq);
    expect(seqs, `${what}: seq`).to.deep.equal([...new Set(seqs)].sort((a, b) => a - b));
    const ofNotes = changes.filter((c) => c.kind === 'note');
    const seen = ofNotes.map((c) => ({ noteId: c.noteId, change: c.change, revision: c.revision }));
    expect(seen, what).to.deep.equal(model.feed.slice(client.seen));
    for (const c of ofNotes)
      model.expectNote(c.note, model.note(c.noteId), `${what}: the note now`);
    client.seen = model.feed.length;
    client.cursor = cursor;
  }
  toString = () => `sync(device ${this.client}, limit ${this.limit})`;
}

export class Search implements Cmd {
  constructor(readonly at: number) {}
  check = (m: Readonly<NotesModel>) => m.notes.length > 0;
  async run(model: NotesModel, real: Real) {
    const note = pick(model.notes, this.at);
    const word = note.content.split(' ')[0]!;
    // split: an API process reloads its lexical index in the background once a search finds it
    // over a second old, so a change is found "from the first search that starts after the
    // reload, not at once" (README) — searched again until then, 5 s at most
    const deadline = Date.now() + (SPLIT ? 5_000 : 0);
    let res: Awaited<ReturnType<Api>>;
    let found: string[];
    for (;;) {
      res = await real.apis[0]!('GET', `/v1/notes/search?q=${word}&limit=20`);
      expectStatus(res, 200, `search ${word}`);
      found = res.body.results.map((r: Json) => r.note.id);
      if (found.includes(note.id) !== note.trashed || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const what = `search for the word of ${note.id} (trashed: ${note.trashed})`;
    if (note.trashed) expect(found, what).not.to.include(note.id);
    else expect(found, what).to.include(note.id);
    for (const r of res.body.results)
      model.expectNote(r.note, model.note(r.note.id), 'a search result');
    for (const id of found) expect(model.note(id).trashed, `${id} found by search`).to.equal(false);
  }
  toString = () => `search(#${this.at})`;
}

export class ListNamed implements Cmd {
  check = () => true;
  async run(model: NotesModel, real: Real) {
    const tags = (await real.apis[1 % real.apis.length]!('GET', '/v1/tags?includeDeleted=true'))
      .body.tags;
    const shown = (t: Json) => ({ id: t.id, name: t.name, deleted: t.deletedAt !== null });
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    const known = model.tags.map(({ id, name, deleted }) => ({ id, name, deleted }));
    expect(tags.map(shown).sort(byId), 'GET /v1/tags?includeDeleted=true').to.deep.equal(
      known.sort(byId),
    );
    const devices = (await real.apis[0]!('GET', '/v1/devices')).body.devices;
    const device = (d: Json) => ({ id: d.id, name: d.name });
    expect(devices.map(device).sort(byId), 'GET /v1/devices').to.deep.equal(
      model.devices.map(device).sort(byId),
    );
  }
  toString = () => 'listTagsAndDevices()';
}
