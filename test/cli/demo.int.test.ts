import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { itemsOf } from '../../projections/items/document.js';
import { isTokenUsable, tokenByHash } from '../../projections/tokens/queries.js';
import { workspaceBySlug } from '../../projections/workspaces/queries.js';
import { DEMO, seedDemoIfEmpty } from '../../src/cli/demo.js';
import { readImportFile } from '../../src/cli/items/file.js';
import { importItems } from '../../src/cli/items/importer.js';
import { withSession } from '../../src/cli/session.js';
import { loadConfig } from '../../src/config/load.js';
import {
  createProduct,
  createUser,
  createWorkspace,
  hashToken,
} from '../../src/feedback/actions/index.js';
import { removeDir, seedBoard, tempDataDir, withStores } from './support.js';

const exampleCount = (JSON.parse(readFileSync('examples/items.json', 'utf8')) as unknown[]).length;

describe('When the service starts with --demo', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = tempDataDir();
  });
  after(() => removeDir(dir));

  it('seeds a demo workspace on an empty data directory and prints a working token', async () => {
    const notice = await seedDemoIfEmpty(loadConfig({ DATA_DIR: dir }));
    expect(notice).to.be.a('function');
    const text = notice!('http://127.0.0.1:4321');
    const token = text.match(/rft_service_[A-Za-z0-9_-]+/)?.[0];
    expect(text).to.contain('http://127.0.0.1:4321/v1/workspaces/demo-board/products/WEB/items');
    await withStores(dir, async ({ readStore }) => {
      const workspace = await workspaceBySlug(readStore, 'demo-board');
      expect(workspace).to.not.equal(null);
      const web = await itemsOf(readStore).countDocuments({
        _ws: workspace!.workspaceId,
        productId: 'WEB',
      });
      const api = await itemsOf(readStore).countDocuments({
        _ws: workspace!.workspaceId,
        productId: 'API',
      });
      expect([web, api]).to.deep.equal([exampleCount, 2]);
      const stored = await tokenByHash(readStore, hashToken(token!));
      expect(stored && isTokenUsable(stored, Date.now())).to.equal(true);
    });
  });

  it('seeds nothing on a data directory that already holds data', async () => {
    const head = await withStores(dir, ({ eventStore }) => eventStore.headPosition());
    expect(await seedDemoIfEmpty(loadConfig({ DATA_DIR: dir }))).to.equal(null);
    expect(await withStores(dir, ({ eventStore }) => eventStore.headPosition())).to.equal(head);
  });
});

/** What a demo seeding cut short leaves: the maker, the workspace, WEB and 3 of its items. */
async function seedPartOfTheDemo(dir: string): Promise<void> {
  await withSession(loadConfig({ DATA_DIR: dir }), async ({ deps, context, caughtUp }) => {
    const { userId } = await createUser(deps, context(), {
      email: DEMO.email,
      displayName: DEMO.name,
    });
    await caughtUp();
    const { workspaceId } = await createWorkspace(deps, context(), {
      slug: DEMO.slug,
      name: DEMO.workspace,
      ownerId: userId,
    });
    await createProduct(deps, context(), {
      workspaceId,
      key: 'WEB',
      name: 'Web app',
      visibility: 'public',
    });
    const rows = readImportFile('examples/items.json').slice(0, 3);
    await importItems(deps, context('import'), { workspaceId, productKey: 'WEB' }, rows);
  });
}

describe('When --demo runs on a demo whose seeding was cut short (a Ctrl-C while it ran)', function () {
  // README: `--demo` seeds a demo workspace "and prints a personal API token"; a data directory
  // holding only a half-made demo printed "already holds data" and no token, for good
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = tempDataDir();
  });
  after(() => removeDir(dir));

  it('finishes that demo once, without duplicating what the first run made, and prints a token', async () => {
    await seedPartOfTheDemo(dir);
    const notice = await seedDemoIfEmpty(loadConfig({ DATA_DIR: dir }));
    expect(notice, 'the unfinished demo is finished').to.be.a('function');
    const text = notice!('http://127.0.0.1:4321');
    expect(text).to.contain(`${exampleCount + 2} items`);
    const token = text.match(/rft_service_[A-Za-z0-9_-]+/)?.[0];
    await withStores(dir, async ({ readStore }) => {
      const workspace = await workspaceBySlug(readStore, 'demo-board');
      const count = (productId: string) =>
        itemsOf(readStore).countDocuments({ _ws: workspace!.workspaceId, productId });
      expect([await count('WEB'), await count('API')]).to.deep.equal([exampleCount, 2]);
      const stored = await tokenByHash(readStore, hashToken(token!));
      expect(stored && isTokenUsable(stored, Date.now())).to.equal(true);
    });
    // finished now: a third run seeds nothing
    expect(await seedDemoIfEmpty(loadConfig({ DATA_DIR: dir }))).to.equal(null);
  });

  it('seeds nothing where other data is beside no demo maker', async () => {
    const other = tempDataDir();
    try {
      await seedBoard(other);
      expect(await seedDemoIfEmpty(loadConfig({ DATA_DIR: other }))).to.equal(null);
    } finally {
      removeDir(other);
    }
  });
});
