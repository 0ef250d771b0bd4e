/**
 * Who copies the WAL back into the file (src/readstore/embedded/persistence.ts): the read store
 * commits on the main thread, so it leaves checkpoints to the event log's writer thread, which
 * shares the file and checkpoints at 8 MiB of WAL — the read store's own bound is 16 MiB. Seen
 * from outside: while the WAL stays under 16 MiB the read store's flushes leave the main file
 * as it was; past it they checkpoint (the file takes the pages), so alone in its file the WAL
 * stays bounded.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { openEmbeddedReadStore } from '../../../src/readstore/embedded/index.js';
import type { ReadStore } from '../../../src/readstore/types.js';
import { tempDir } from '../../support/stores.js';

const MiB = 1024 * 1024;

describe('Checkpoints of the embedded read store', function () {
  this.timeout(60_000);
  let dir: string;
  let file: string;
  let store: ReadStore;
  beforeEach(async () => {
    dir = tempDir('rs-checkpoints-');
    file = join(dir, 'store.sqlite');
    store = await openEmbeddedReadStore({ path: file });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let written = 0;
  /** one flush (one commit) of 200 new documents of ~1 KB */
  async function flushSome() {
    const docs = store.collection('bulk');
    const padding = 'x'.repeat(1000);
    for (let i = 0; i < 200; i++) await docs.insertOne({ _id: `d-${written++}`, padding });
    await store.flush();
  }
  const mainFile = () => statSync(file).size;
  const wal = () => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

  it('leaves the WAL to the log writer below 16 MiB, and checkpoints itself past it', async () => {
    const before = mainFile();
    for (let i = 0; i < 200 && wal() < 8 * MiB; i++) await flushSome();
    expect(wal(), 'the flushes went to the WAL').to.be.at.least(8 * MiB);
    expect(mainFile(), 'no checkpoint at SQLite default 4 MiB').to.equal(before);
    for (let i = 0; i < 200 && mainFile() === before; i++) await flushSome();
    expect(mainFile(), 'a checkpoint copied the WAL back').to.be.greaterThan(before);
    expect(wal(), 'once past 16 MiB').to.be.within(16 * MiB, 20 * MiB);
  });
});
