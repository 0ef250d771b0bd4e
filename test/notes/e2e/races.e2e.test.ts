/**
 * The concurrency audit's reproductions over real HTTP (two or twenty requests sent at once):
 * the outcome must be one the requests could have had one after the other. The action tests
 * (test/notes/*-races.int.test.ts, idempotency-keys.int.test.ts) pin each interleaving; these
 * check the same rules hold as answered over HTTP, statuses included.
 */
import { expect } from 'chai';
import { type Api, type NotesE2e, startNotesE2e } from './support.js';

describe('Notes writes sent at once', function () {
  this.timeout(30_000);
  let e: NotesE2e;
  let api: Api;
  let n = 0;
  const fresh = (what: string) => `${what}-${Date.now()}-${n++}`;
  const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();
  const named = async (path: string, list: string, name: string) =>
    ((await api('GET', path)).body[list] as { name: string }[]).filter(
      (x) => x.name.toLowerCase() === name.toLowerCase(),
    );

  before(async () => {
    e = await startNotesE2e();
    api = e.api((await e.signIn('racer@example.com')).token);
  });
  after(async () => e.stop());

  it('gives one name to one tag and one device: renames and creates at once', async () => {
    // sequentially the second gets 409 'a tag named "…" already exists'
    for (const [path, list, body] of [
      ['/v1/tags', 'tags', {}],
      ['/v1/devices', 'devices', { platform: 'ios' }],
    ] as const) {
      const make = async () =>
        (await api('POST', path, { name: fresh('n'), ...body })).body.id as string;
      const [a, b] = [await make(), await make()];
      const dup = fresh('dup');
      const renames = await Promise.all([
        api('PUT', `${path}/${a}`, { name: dup }),
        api('PUT', `${path}/${b}`, { name: dup }),
      ]);
      expect(statuses(renames), path).to.deep.equal([200, 409]);
      expect(await named(path, list, dup), path).to.have.length(1);
      const other = fresh('dup');
      const mixed = await Promise.all([
        api('PUT', `${path}/${a}`, { name: other }),
        api('POST', path, { name: other, ...body }),
      ]);
      expect(
        mixed.filter((r) => r.status === 409),
        path,
      ).to.have.length(1);
      expect(await named(path, list, other), path).to.have.length(1);
    }
  });

  it('refuses one of two moves that would make each tag the other’s parent', async () => {
    // sequentially: 400 "parentId would make the tag its own ancestor (a cycle)"; five pairs at
    // once, so that some pair's two checks both come before either move
    const make = async () => (await api('POST', '/v1/tags', { name: fresh('t') })).body.id;
    const pairs = [];
    for (let i = 0; i < 5; i++) pairs.push([await make(), await make()]);
    const moves = await Promise.all(
      pairs.flatMap(([p, q]) => [
        api('PUT', `/v1/tags/${p}`, { parentId: q }),
        api('PUT', `/v1/tags/${q}`, { parentId: p }),
      ]),
    );
    for (let i = 0; i < pairs.length; i++) {
      const pair = moves.slice(2 * i, 2 * i + 2);
      expect(statuses(pair)).to.deep.equal([200, 400]);
      expect(pair.find((m) => m.status === 400)?.body.error).to.match(/cycle/);
    }
  });

  it('refuses (412) a tag or device create under a used key, one after the other or at once', async () => {
    // OpenAPI: "the same key with a different request is refused"
    for (const [path, list, body] of [
      ['/v1/tags', 'tags', {}],
      ['/v1/devices', 'devices', { platform: 'ios' }],
    ] as const) {
      const headers = { 'idempotency-key': fresh('key') };
      const [seqA, seqB] = [fresh('seqA'), fresh('seqB')];
      expect((await api('POST', path, { name: seqA, ...body }, headers)).status).to.equal(201);
      const second = await api('POST', path, { name: seqB, ...body }, headers);
      expect(second.status, path).to.equal(412);
      expect(await named(path, list, seqB), path).to.deep.equal([]);

      const key = { 'idempotency-key': fresh('key') };
      const names = Array.from({ length: 20 }, () => fresh('burst'));
      const burst = await Promise.all(
        names.map((name) => api('POST', path, { name, ...body }, key)),
      );
      expect(statuses(burst), path).to.deep.equal([201, ...Array(19).fill(412)]);
      const all = ((await api('GET', path)).body[list] as { name: string }[]).map((x) => x.name);
      expect(
        names.filter((name) => all.includes(name)),
        path,
      ).to.have.length(1);
    }
  });

  it('creates the tags of only the one of 20 note creates under one key that is taken', async () => {
    // the audit: 1×201, 19×412 "Idempotency-Key was already used …", but 20 new tags
    const key = { 'idempotency-key': fresh('key') };
    const names = Array.from({ length: 20 }, () => fresh('t'));
    const burst = await Promise.all(
      names.map((name) => api('POST', '/v1/notes', { content: 'x', tags: [name] }, key)),
    );
    expect(statuses(burst)).to.deep.equal([201, ...Array(19).fill(412)]);
    const all = ((await api('GET', '/v1/tags')).body.tags as { name: string }[]).map((t) => t.name);
    expect(names.filter((name) => all.includes(name))).to.have.length(1);
  });
});
