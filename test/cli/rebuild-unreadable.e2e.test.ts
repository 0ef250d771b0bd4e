/**
 * Read models whose stored documents cannot be read (failure audit F5). DESIGN.md: "Projectors
 * … build read models"; "A rebuild command drops a read model and replays it." README, "Admin
 * CLI": a server refuses to start over such documents, and when they belong to read models and
 * the event log verifies clean it names the `rebuild` that replaces them; `rebuild` drops them
 * without reading them, and the event log is left as it was.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { startProcess } from '../support/processes.js';
import { refusal, runToExit } from '../processes/support.js';
import { cliFails, cliOk, removeDir, seedBoard, spoil, tempDataDir } from './support.js';

const REBUILD = '`npm run cli -- rebuild --projector workspaces,products`';

/** The event log's rows and hash chain, byte for byte. */
function logBytes(dir: string): unknown[][] {
  const db = new Database(join(dir, 'store.sqlite'), { readonly: true });
  try {
    return [
      ...db
        .prepare(
          'SELECT position, hex(stream_id), revision, hex(event_id), hex(type), hex(data), hex(metadata) FROM es_events ORDER BY position',
        )
        .raw()
        .all(),
      ...db.prepare('SELECT first, last, hex(hashes) FROM es_chain ORDER BY first').raw().all(),
    ] as unknown[][];
  } finally {
    db.close();
  }
}

describe('When read-model documents in the data file cannot be read (e2e)', function () {
  this.timeout(180_000);
  let dir: string;
  let token: string;
  before(async () => {
    dir = tempDataDir();
    await seedBoard(dir);
    // the value is the first line (README: "alone on its first line")
    token = (await cliOk(dir, 'create-token', '--email', 'max@acme.io', '--name', 'laptop')).split(
      '\n',
    )[0]!;
    spoil(dir, 'products', '{"_id":"w1.APP","na'); // cut short
    spoil(dir, 'workspaces', Buffer.from([0xff, 0x00, 0x7b])); // bytes where text belongs
  });
  after(() => removeDir(dir));

  it('the server refuses to start, naming each document and, the log verifying clean, the rebuild', async () => {
    const line = refusal(await runToExit({ DATA_DIR: dir }));
    expect(line).to.match(
      /^cannot start: read store file .*store\.sqlite: 2 stored documents cannot be read \(products\/.+APP: .*JSON.*; workspaces\/w\w+: stored as bytes, not text\)/,
    );
    expect(line).to.contain(
      `the event log in it verifies clean (6 events, chain intact): rebuild those read models from it with ${REBUILD}`,
    );
  });

  it('rebuild of one of them names the other too, rebuild of both replaces them and leaves the log byte for byte, and the service serves again', async () => {
    const log = logBytes(dir);
    expect(await cliFails(dir, 'rebuild', '--projector', 'products')).to.contain(REBUILD);
    expect(await cliOk(dir, 'rebuild', '--projector', 'workspaces,products')).to.match(
      /^rebuilt workspaces, products \(workspaces, memberships, products\) up to position 6 in /,
    );
    expect(logBytes(dir)).to.deep.equal(log);

    const { child, url } = await startProcess(dir);
    try {
      const res = await fetch(`${url}/v1/workspaces/acme-co/products`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).to.equal(200);
      expect(JSON.stringify(await res.json())).to.match(/"id":"APP","name":"App"/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
