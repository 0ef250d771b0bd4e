/**
 * The CLI over a DATA_DIR that holds no event log, or cannot hold one. README, Admin CLI: "Errors
 * are one line on stderr and exit code 1"; Configuration: "a bad value stops the process with
 * … one line naming the key". A verb that only reads the log (verify, export, rebuild) refuses
 * a folder without one, as an operator's mistyped DATA_DIR, and leaves nothing behind there.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { cliFails, removeDir, tempDataDir } from './support.js';

describe('When the CLI is given a DATA_DIR without an event log', function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = tempDataDir();
  });
  after(() => removeDir(root));

  it('refuses to rebuild a read model there and creates nothing', async () => {
    const typo = join(root, 'typo');
    expect(await cliFails(typo, 'rebuild', '--projector', 'items')).to.match(
      /^error: no event log at .*typo\/store\.sqlite$/,
    );
    expect(existsSync(typo)).to.equal(false);
  });

  it('names DATA_DIR when it is a file, not a folder', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'notes');
    expect(await cliFails(file, 'create-user', '--email', 'max@acme.io')).to.equal(
      `error: DATA_DIR=${file}: is a file, not a folder`,
    );
  });
});
