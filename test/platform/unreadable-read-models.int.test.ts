/**
 * What opening the stores says about stored documents it cannot read, when `rebuild` is NOT the
 * way out (failure audit F5; src/platform/unreadable-read-models.ts): DESIGN.md makes read models
 * projections of the event log, so only they are rebuilt from it — and only from a log that
 * verifies clean. Anything else keeps the advice to restore the file from a backup.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { openStores } from '../../src/platform/stores.js';
import { removeDir, seedBoard, tempDataDir } from '../cli/support.js';

function edit(dir: string, sql: string): void {
  const db = new Database(join(dir, 'store.sqlite'));
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

async function refusal(dir: string): Promise<string> {
  const opened = await openStores(loadConfig({ DATA_DIR: dir })).then(
    async (stores) => {
      await stores.close();
      return undefined;
    },
    (error: Error) => error,
  );
  expect(opened, 'the stores opened').to.be.instanceOf(Error);
  return opened!.message;
}

describe('When the read store holds documents it cannot read, and rebuild cannot help', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = tempDataDir();
    await seedBoard(dir);
  });
  afterEach(() => removeDir(dir));

  it('a document no projection makes (a rate limit’s count) is to be restored from a backup', async () => {
    edit(dir, `INSERT INTO rm_docs (collection, id, json) VALUES ('rate_limits', 'k', '{"n":')`);
    const message = await refusal(dir);
    expect(message).to.match(/1 stored document cannot be read \(rate_limits\/k: /);
    expect(message).to.contain(
      'rate_limits holds no read model the event log rebuilds: restore the file from a backup; do not move it away: it also holds the event log',
    );
    expect(message).not.to.contain('rebuild --projector');
  });

  it('a read model over a log whose chain breaks is to be restored from a backup', async () => {
    edit(
      dir,
      `UPDATE rm_docs SET json = '{' WHERE collection = 'products';
       UPDATE es_events SET data = replace(data, 'Acme', 'Acne') WHERE position = 3;`,
    );
    const message = await refusal(dir);
    expect(message).to.contain(
      'the event log in it does not verify either (chain broken at position 3): restore the file from a backup',
    );
    expect(message).not.to.contain('rebuild --projector');
  });
});
