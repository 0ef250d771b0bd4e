/**
 * README, Security (Files): DATA_DIR and its files are kept private (0700 / 0600) because they
 * hold what a local user must not read. An export holds the same data of a workspace — its
 * people's e-mail addresses, every item and reply — and was made by the umask (0644 here):
 * readable by every user of the machine. It is made 0600, like the data file.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { cliOk, removeDir, seedBoard, tempDataDir } from './support.js';

describe('When an operator exports a workspace (CLI)', function () {
  this.timeout(120_000);
  let source: string;
  let target: string;
  before(async () => {
    source = tempDataDir();
    target = tempDataDir();
    await seedBoard(source);
  });
  after(() => {
    removeDir(source);
    removeDir(target);
  });

  it('makes the file readable by its owner alone (0600), whatever the umask', async () => {
    const out = join(target, 'acme.jsonl');
    await cliOk(source, 'export', '--workspace', 'acme-co', '--out', out);
    expect((statSync(out).mode & 0o777).toString(8)).to.equal('600');
  });
});
