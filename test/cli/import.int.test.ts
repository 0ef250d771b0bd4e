import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { type ItemDoc, itemsOf } from '../../projections/items/document.js';
import { getProduct } from '../../projections/products/queries.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { cliFails, cliOk, removeDir, seedBoard, tempDataDir, withStores } from './support.js';

interface ExampleEntry {
  title?: string;
  body: string;
  requester: { email?: string; displayName?: string };
  status: string;
  tags: string[];
  plusOnes: number;
  createdAt: string;
}
const EXAMPLE = 'examples/items.json';
/** the arguments of import-items of `file` into acme-co/APP */
const importInto = (file: string) =>
  ['import-items', '--workspace', 'acme-co', '--product', 'APP', '--file', file] as const;
const entries = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as ExampleEntry[];

function itemsOfApp(readStore: ReadStore, workspaceId: string): Promise<ItemDoc[]> {
  return itemsOf(readStore).find({ _ws: workspaceId, productId: 'APP' }, { sort: { _n: 1 } });
}

describe('When an operator imports feedback items from a JSON file', function () {
  this.timeout(120_000);
  let dir: string;
  let workspaceId: string;
  before(async () => {
    dir = tempDataDir();
    ({ workspaceId } = await seedBoard(dir));
  });
  after(() => removeDir(dir));

  it('creates one item per entry with its status, tags, +1 count, requester and time', async () => {
    expect(await cliOk(dir, ...importInto(EXAMPLE))).to.match(
      new RegExp(
        `^imported ${entries.length} items into acme-co/APP \\(APP-1 … APP-${entries.length}\\)`,
      ),
    );
    await withStores(dir, async ({ readStore }) => {
      const items = await itemsOfApp(readStore, workspaceId);
      expect(items).to.have.length(entries.length);
      items.forEach((item, i) => {
        const entry = entries[i]!;
        expect(item.id).to.equal(`APP-${i + 1}`);
        expect(item.body).to.equal(entry.body);
        // a blank title is derived from the body's opening, as submit_feedback does
        if (entry.title) expect(item.title).to.equal(entry.title);
        else expect(entry.body.startsWith(item.title.replace(/…$/, '').trim())).to.equal(true);
        expect(item.status, item.id).to.equal(entry.status);
        expect(item.tagIds, item.id).to.deep.equal(entry.tags);
        expect(item.plusOneCount, item.id).to.equal(entry.plusOnes);
        expect(item.createdAt).to.equal(Date.parse(entry.createdAt));
        expect(item.author.tier).to.equal(entry.requester.email ? 'email' : 'anonymous');
        expect(item.author.displayName).to.equal(entry.requester.displayName ?? null);
        expect(item.via).to.equal('import');
      });
      expect((await getProduct(readStore, { workspaceId, key: 'APP' }))?.itemCount).to.equal(
        entries.length,
      );
    });
  });

  it('skips entries already imported when the same file is imported again', async () => {
    expect(await cliOk(dir, ...importInto(EXAMPLE))).to.match(
      new RegExp(`^imported 0 items into acme-co/APP; ${entries.length} already imported, skipped`),
    );
    await withStores(dir, async ({ readStore }) => {
      const items = await itemsOfApp(readStore, workspaceId);
      expect(items).to.have.length(entries.length);
      expect(items.map((i) => i.plusOneCount)).to.deep.equal(entries.map((e) => e.plusOnes));
    });
  });

  it('names every bad entry by number and imports nothing from that file', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify([
        { body: 'fine' },
        { body: 'bad status', status: 'done' },
        { body: 'fine too' },
        { body: 'bad email', requester: { email: 'nope' } },
      ]),
    );
    const line = await cliFails(dir, ...importInto(file));
    expect(line).to.match(/2 invalid entries/);
    expect(line).to.match(/#2 status: /);
    expect(line).to.match(/#4 requester\.email: not a valid e-mail address/);
    expect(line).not.to.match(/#1 |#3 /);
    await withStores(dir, async ({ readStore }) => {
      expect(await itemsOfApp(readStore, workspaceId)).to.have.length(entries.length);
    });
  });

  it('rebuilds a damaged items read model from the log', async () => {
    const before = await withStores(dir, ({ readStore }) => itemsOfApp(readStore, workspaceId));
    await withStores(dir, async ({ readStore }) => {
      await itemsOf(readStore).deleteMany({ _ws: workspaceId, id: { $in: ['APP-2', 'APP-3'] } });
      await readStore.flush();
    });
    const damaged = await withStores(dir, ({ readStore }) => itemsOfApp(readStore, workspaceId));
    expect(damaged).to.have.length(entries.length - 2);
    expect(await cliOk(dir, 'rebuild', '--projector', 'items')).to.match(
      /^rebuilt items \(items\) up to position \d+/,
    );
    const after = await withStores(dir, ({ readStore }) => itemsOfApp(readStore, workspaceId));
    expect(after).to.deep.equal(before);
  });
});

describe('When an import file breaks the text rules or names impossible dates', function () {
  this.timeout(120_000);
  let dir: string;
  let workspaceId: string;
  before(async () => {
    dir = tempDataDir();
    ({ workspaceId } = await seedBoard(dir));
  });
  after(() => removeDir(dir));

  it('names every bad entry, writes nothing and uses no item number', async () => {
    // README: import-items "checks the whole file first — the API's text rules for titles,
    // bodies and tags, dates that exist, none before 1970 […] and none ahead of now by more than a
    // day — and names every bad entry". The audit's file imported entry 1, then stopped naming no
    // entry.
    const file = join(dir, 'rules.json');
    writeFileSync(
      file,
      JSON.stringify([
        { body: 'good' },
        { title: 'bad\u0001', body: 'x' },
        { body: 'g3', tags: ['ok', 'bad\u0002'] },
        { body: 'g4' },
        { body: 'lone \ud800' },
        { body: 'later', createdAt: '2999-01-01' },
        { body: 'no such day', createdAt: '2025-02-30' },
      ]),
    );
    const args = importInto(file);
    expect(await cliFails(dir, ...args)).to.match(
      /: 5 invalid entries .*: #2 title: .*; #3 tags\.1: .*; #5 body: .*; #6 createdAt: in the future; #7 createdAt: not a real date$/,
    );
    await withStores(dir, async ({ readStore }) => {
      expect(await itemsOfApp(readStore, workspaceId)).to.deep.equal([]);
    });
    writeFileSync(file, JSON.stringify([{ body: 'good' }, { body: 'g4' }]));
    expect(await cliOk(dir, ...args)).to.equal(
      'imported 2 items into acme-co/APP (APP-1 … APP-2)\n',
    );
  });

  it('refuses a creation time before 1970 as it refuses a negative number, naming each entry', async () => {
    // the API's times are milliseconds since 1970 (OpenAPI: integer, minimum 0): a date before
    // it was imported, and every answer showing the item then broke that schema (the MCP SDK
    // client refused list_items for the whole product). 0000-02-29 exists (year 0 is a leap
    // year); it was refused as "not a real date", Date.UTC having read year 0 as 1900.
    const file = join(dir, 'old.json');
    writeFileSync(
      file,
      JSON.stringify([
        { body: 'sixties', createdAt: '1960-01-01' },
        { body: 'leap day of year zero', createdAt: '0000-02-29' },
        { body: 'one ms before the epoch', createdAt: -1 },
        { body: 'the epoch itself', createdAt: '1970-01-01T00:00:00Z' },
      ]),
    );
    const before = await withStores(dir, ({ readStore }) => itemsOfApp(readStore, workspaceId));
    const rule = 'before 1970-01-01, the earliest time an item can have';
    expect(await cliFails(dir, ...importInto(file))).to.match(
      new RegExp(
        `: 3 invalid entries .*: #1 createdAt: ${rule}; #2 createdAt: ${rule}; #3 createdAt: ${rule}$`,
      ),
    );
    await withStores(dir, async ({ readStore }) => {
      expect(await itemsOfApp(readStore, workspaceId)).to.deep.equal(before);
    });
  });

  it('refuses a creation time without its offset, which would be read in the server’s zone', async () => {
    // README: "a bare date is midnight UTC; a time must say its offset" — the same file meant
    // other moments on servers in other time zones
    const file = join(dir, 'local.json');
    writeFileSync(
      file,
      JSON.stringify([
        { body: 'a local time', createdAt: '2025-01-08T09:12' },
        { body: 'a date', createdAt: '2025-01-08' },
        { body: 'a time in UTC', createdAt: '2025-01-08T09:12:00Z' },
        { body: 'a time with an offset', createdAt: '2025-01-08T09:12+01:00' },
      ]),
    );
    const before = await withStores(dir, ({ readStore }) => itemsOfApp(readStore, workspaceId));
    expect(await cliFails(dir, ...importInto(file))).to.match(
      /: 1 invalid entry .*: #1 createdAt: a time needs its offset: Z for UTC or one like \+01:00 \(without, it would be read in this machine's time zone\)$/,
    );
    await withStores(dir, async ({ readStore }) => {
      expect(await itemsOfApp(readStore, workspaceId)).to.deep.equal(before);
    });
  });

  it('names the one key of an import of one item, not a range of it', async () => {
    // a range of one printed "(APP-3 … APP-3)"; one item is named alone
    const file = join(dir, 'one.json');
    writeFileSync(file, JSON.stringify([{ body: 'just one' }]));
    expect(await cliOk(dir, ...importInto(file))).to.match(
      /^imported 1 item into acme-co\/APP \(APP-\d+\)\n$/,
    );
    expect(await cliOk(dir, ...importInto(file))).to.equal(
      'imported 0 items into acme-co/APP; 1 already imported, skipped\n',
    );
  });

  it('records a creation time ahead of its own clock as the time of the import', async () => {
    // README: a createdAt later than the import's own time is recorded as that time, so an item
    // never shows its creation after its changes (it showed createdAt after statusChangedAt)
    const file = join(dir, 'ahead.json');
    const ahead = Date.now() + 12 * 3_600_000;
    writeFileSync(
      file,
      JSON.stringify([{ body: 'from a clock ahead', status: 'planned', createdAt: ahead }]),
    );
    const started = Date.now();
    expect(await cliOk(dir, ...importInto(file))).to.match(/^imported 1 item/);
    await withStores(dir, async ({ readStore }) => {
      const items = await itemsOfApp(readStore, workspaceId);
      const item = items.find((i) => i.body === 'from a clock ahead')!;
      expect(item.createdAt).to.be.within(started, Date.now());
      expect(item.createdAt).to.be.at.most(item.statusChangedAt!);
      expect(item.createdAt).to.be.at.most(item.updatedAt);
    });
  });

  it('refuses a file that is not UTF-8 (the API’s text rule) and reads one with a byte-order mark', async () => {
    const latin1 = join(dir, 'latin1.json');
    // "Café menu broken" as Windows-1252 writes it: é is the single byte 0xE9
    writeFileSync(latin1, Buffer.from('[{"title":"Caf\xe9 menu broken","body":"x"}]', 'latin1'));
    const refused = await cliFails(dir, ...importInto(latin1));
    expect(refused).to.contain('is not valid UTF-8');
    const bom = join(dir, 'bom.json');
    writeFileSync(
      bom,
      `\uFEFF${JSON.stringify([{ title: 'Café menu, saved by Notepad', body: 'x' }])}`,
    );
    expect(await cliOk(dir, ...importInto(bom))).to.match(/imported 1 item/);
    await withStores(dir, async ({ readStore }) => {
      const titles = (await itemsOfApp(readStore, workspaceId)).map((item) => item.title);
      expect(titles).to.include('Café menu, saved by Notepad');
      expect(titles.some((title) => title.includes('\uFFFD'))).to.equal(false);
    });
  });
});
