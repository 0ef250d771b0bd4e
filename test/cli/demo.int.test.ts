import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { itemsOf } from '../../projections/items/document.js';
import { isTokenUsable, tokenByHash } from '../../projections/tokens/queries.js';
import { workspaceBySlug } from '../../projections/workspaces/queries.js';
import { seedDemoIfEmpty } from '../../src/cli/demo.js';
import { loadConfig } from '../../src/config/load.js';
import { hashToken } from '../../src/feedback/actions/index.js';
import { removeDir, tempDataDir, withStores } from './support.js';

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
