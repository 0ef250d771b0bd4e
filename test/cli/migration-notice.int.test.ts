/**
 * A CLI command on a data file an older build wrote migrates the event log's schema at open, one
 * way (older builds then refuse the file): it says so on stderr, one line as it starts and one
 * as it ends, and its answer stays on stdout alone.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { STORE_FILE } from '../../src/config/data-dir.js';
import { VERSION_3_SQL, writeOldFile } from '../eventstore/old-schema-files.js';
import { cli, removeDir, tempDataDir } from './support.js';

describe('When a CLI command opens a data file of event log schema version 3', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDataDir();
  });
  afterEach(() => removeDir(dir));

  it('prints the one-way migration on stderr, its answer on stdout', async () => {
    const file = join(dir, STORE_FILE);
    writeOldFile(file, VERSION_3_SQL, true);
    const run = await cli(dir, 'create-user', '--email', 'max@example.com');
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^created user max@example.com/);
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    expect(lines).to.have.length(2);
    expect(lines[0]).to.equal(
      `event log ${file}: migrating from schema version 3 to 4; one-way: builds older than this one will refuse the file`,
    );
    expect(lines[1]).to.match(
      new RegExp(`^event log ${file} migrated to schema version 4 in \\d+ ms \\(30 events\\)$`),
    );
  });
});
