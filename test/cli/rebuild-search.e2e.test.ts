/**
 * The search indexes are rebuilt like every other read model. DESIGN.md, Search: "The vector
 * index is a projection"; Read models: "A rebuild command drops a read model and replays it".
 * README, Admin CLI: a read model's stored documents that cannot be read stop a server's start
 * and the write commands with a line that, the log verifying clean, names `rebuild --projector
 * <name>`. An audit found /readyz listing `feedback-search` and `notes-search` while `rebuild`
 * answered `no projector named "feedback-search"`, and a damaged search index told to be
 * restored from a backup though the log holds every text it indexes.
 */
import { expect } from 'chai';
import { withSession } from '../../src/cli/session.js';
import { loadConfig } from '../../src/config/load.js';
import { createNote } from '../../src/notes/actions/notes.js';
import { createGazetteer } from '../../src/notes/places.js';
import { refusal, runToExit } from '../processes/support.js';
import { startProcess } from '../support/processes.js';
import {
  cliFails,
  cliOk,
  removeDir,
  seedBoard,
  spoil,
  tempDataDir,
  withStores,
} from './support.js';

type VectorDoc = {
  _id: string;
  pending?: boolean;
  vector?: string | null;
  provider?: string;
};

/** The documents of a search index's collection, its meta document apart. */
async function indexOf(dir: string, collection: string) {
  return withStores(dir, async ({ readStore }) => {
    const docs = await readStore.collection<VectorDoc>(collection).find({});
    return {
      meta: docs.find((d) => d._id === '__meta__'),
      texts: docs.filter((d) => d._id !== '__meta__'),
    };
  });
}

const REBUILD = '`npm run cli -- rebuild --projector feedback-search`';

describe('When a search index is rebuilt with the admin CLI (e2e)', function () {
  this.timeout(180_000);
  let dir: string;
  let token: string;
  before(async () => {
    dir = tempDataDir();
    const { userId } = await seedBoard(dir);
    await cliOk(
      dir,
      'import-items',
      '--workspace',
      'acme-co',
      '--product',
      'APP',
      '--file',
      'examples/items.json',
    );
    await withSession(loadConfig({ DATA_DIR: dir }), async ({ deps, context }) => {
      const notes = { ...deps, places: createGazetteer() };
      await createNote(notes, { ...context(), actor: userId }, { userId, content: 'Buy oat milk' });
    });
    // the value is the first line (README: "alone on its first line")
    token = (await cliOk(dir, 'create-token', '--email', 'max@acme.io', '--name', 'laptop')).split(
      '\n',
    )[0]!;
  });
  after(() => removeDir(dir));

  it('lists feedback-search and notes-search among the read models it rebuilds', async () => {
    const list = (await cliOk(dir, 'rebuild')).split('\n');
    expect(list).to.include('feedback-search (search_feedback_items, search_feedback_people)');
    expect(list).to.include('notes-search (search_notes)');
  });

  it('replays every text into them and embeds it before saying they are rebuilt', async () => {
    expect(await cliOk(dir, 'rebuild', '--projector', 'feedback-search,notes-search')).to.match(
      /^rebuilt feedback-search, notes-search \(search_feedback_items, search_feedback_people, search_notes\) up to position \d+ in /,
    );
    for (const [collection, count] of [
      ['search_feedback_items', 20],
      ['search_notes', 1],
    ] as const) {
      const { meta, texts } = await indexOf(dir, collection);
      expect(texts, collection).to.have.length(count);
      expect(
        texts.filter((d) => d.pending || !d.vector),
        collection,
      ).to.deep.equal([]);
      expect(meta?.provider, collection).to.be.a('string');
    }
  });

  it('names that rebuild when the index metadata is damaged, and the server then searches it', async () => {
    spoil(dir, 'search_feedback_items', '{"_id":"__me', '__meta__');
    const start = refusal(await runToExit({ DATA_DIR: dir }));
    expect(start).to.contain('search_feedback_items/__meta__').and.contain(REBUILD);
    expect(start).not.to.contain('backup');
    const write = await cliFails(dir, 'create-user', '--email', 'eva@acme.io', '--name', 'Eva');
    expect(write).to.contain(REBUILD).and.not.contain('backup');

    await cliOk(dir, 'rebuild', '--projector', 'feedback-search');
    const { child, url } = await startProcess(dir);
    try {
      const res = await fetch(
        `${url}/v1/workspaces/acme-co/products/APP/items/search?q=${encodeURIComponent('night theme')}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(res.status).to.equal(200);
      const { hits } = (await res.json()) as { hits: { item: { title: string } }[] };
      expect(hits[0]?.item.title).to.equal('Dark mode');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
