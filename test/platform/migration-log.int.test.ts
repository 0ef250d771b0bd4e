/**
 * The first start of this build on a data file an older build wrote migrates the event log's
 * schema, one-way (older builds then refuse the file): the process says so in its log, when the
 * migration starts (file, versions, one-way) and when it ends (duration, events).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { STORE_FILE } from '../../src/config/data-dir.js';
import { VERSION_3_SQL, writeOldFile } from '../eventstore/old-schema-files.js';
import { logLines } from '../support/log-lines.js';
import { startTestRuntime } from '../support/runtime.js';
import { tempDir } from '../support/stores.js';

describe('When a server starts on a data file of event log schema version 3', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('migration-log-');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('logs the one-way migration to version 4 when it starts and when it ends', async () => {
    const file = join(dir, STORE_FILE);
    writeOldFile(file, VERSION_3_SQL, true);
    const log = logLines();
    const server = await startTestRuntime([], { DATA_DIR: dir }, log.logger);
    await server.stop();
    const migration = log.lines.filter((line) => String(line.msg).startsWith('event log '));
    expect(migration, JSON.stringify(log.lines)).to.have.length(2);
    const [start, end] = migration;
    expect(start).to.deep.include({ file, fromVersion: 3, toVersion: 4, oneWay: true });
    expect(start?.msg).to.include('one-way: builds older than this one will refuse the file');
    expect(end).to.deep.include({ file, toVersion: 4, events: 30 });
    expect(end?.durationMs).to.be.a('number');
  });

  it('logs nothing about a migration on the next start, the file being version 4', async () => {
    writeOldFile(join(dir, STORE_FILE), VERSION_3_SQL, true);
    await (await startTestRuntime([], { DATA_DIR: dir })).stop();
    const log = logLines();
    await (await startTestRuntime([], { DATA_DIR: dir }, log.logger)).stop();
    expect(log.lines.filter((line) => String(line.msg).startsWith('event log '))).to.deep.equal([]);
  });
});
