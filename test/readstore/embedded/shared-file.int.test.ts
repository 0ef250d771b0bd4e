/**
 * Two embedded read stores over one file, as two servers on a shared data directory keep them
 * (src/readstore/embedded/flush-guards.ts): a projection's documents and checkpoint are written
 * only by a store at or past the stored checkpoint and of the generation the last drop made;
 * what no projector claims is written as it is. Each refusal is said once a projector.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { openEmbeddedReadStore } from '../../../src/readstore/embedded/index.js';
import type { ReadStore } from '../../../src/readstore/types.js';
import { tempDir } from '../../support/stores.js';

describe('Two embedded read stores over one file', () => {
  let dir: string;
  let file: string;
  const opened: ReadStore[] = [];
  const said: string[] = [];
  /** a store, its `notes` projector at `at` (what it has applied in this process) */
  const open = async () => {
    const store = await openEmbeddedReadStore({
      path: file,
      logger: { warn: (message) => said.push(message) },
    });
    const projector = { at: undefined as bigint | undefined };
    store.claim('notes', ['notes'], () => projector.at);
    opened.push(store);
    return Object.assign(store, { projector });
  };
  /** what a fresh open of the file (a restart) finds */
  const onDisk = async () => {
    const store = await openEmbeddedReadStore({ path: file });
    try {
      const doc = await store.collection('notes').findOne({ _id: 'n1' });
      return { text: doc?.text, checkpoint: (await store.checkpoints()).get('notes') };
    } finally {
      await store.close();
    }
  };
  beforeEach(() => {
    dir = tempDir('rs-shared-');
    file = join(dir, 'store.sqlite');
    said.length = 0;
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a store behind the stored checkpoint leaves the newer documents, and says so once', async () => {
    const ahead = await open();
    const behind = await open();
    await ahead.collection('notes').insertOne({ _id: 'n1', text: 'second' });
    await ahead.flush(new Map([['notes', 2n]]));
    await behind.collection('notes').insertOne({ _id: 'n1', text: 'first' });
    await behind.flush(new Map([['notes', 1n]]));
    await behind.collection('notes').updateOne({ _id: 'n1' }, { $set: { text: 'first again' } });
    await behind.flush(new Map([['notes', 1n]]));
    expect(await onDisk()).to.deep.equal({ text: 'second', checkpoint: 2n });
    expect(said).to.have.length(1);
    expect(said[0]).to.match(/^projector notes: the data file holds its read model at position 2/);

    // caught up, it writes again
    await behind.collection('notes').updateOne({ _id: 'n1' }, { $set: { text: 'third' } });
    await behind.flush(new Map([['notes', 3n]]));
    expect(await onDisk()).to.deep.equal({ text: 'third', checkpoint: 3n });
  });

  it("a flush not given the checkpoint (a sign-in's) goes by the one the projector has now", async () => {
    const ahead = await open();
    const behind = await open();
    await ahead.collection('notes').insertOne({ _id: 'n1', text: 'second' });
    await ahead.flush(new Map([['notes', 2n]]));
    // applied up to 4 since its last flush, then a sign-in flushes: documents and checkpoint 4
    ahead.projector.at = 4n;
    await ahead.collection('notes').updateOne({ _id: 'n1' }, { $set: { text: 'fourth' } });
    await ahead.flush();
    expect(await onDisk()).to.deep.equal({ text: 'fourth', checkpoint: 4n });

    behind.projector.at = 3n;
    await behind.collection('notes').insertOne({ _id: 'n1', text: 'third' });
    await behind.collection('sessions').insertOne({ _id: 's1', user: 'max' });
    await behind.flush();
    await ahead.flush(new Map([['notes', 4n]]));
    expect(await onDisk()).to.deep.equal({ text: 'fourth', checkpoint: 4n });
    // what no projector claims is this store's own: written as it is
    const reopened = await openEmbeddedReadStore({ path: file });
    expect(await reopened.collection('sessions').findOne({ _id: 's1' })).to.include({
      user: 'max',
    });
    await reopened.close();
  });

  it('a store that loaded a read model before another dropped it writes neither its documents nor its checkpoint there', async () => {
    const first = await open();
    await first.collection('notes').insertOne({ _id: 'n1', text: 'garbled' });
    await first.flush(new Map([['notes', 5n]]));
    const woken = await open();

    // a rebuild: drop, forget the checkpoint, replay (here: one event)
    await first.dropCollection('notes');
    await first.deleteCheckpoint('notes');
    await first.collection('notes').insertOne({ _id: 'n1', text: 'repaired' });
    await first.flush(new Map([['notes', 1n]]));

    await woken.collection('notes').updateOne({ _id: 'n1' }, { $set: { text: 'garbled, later' } });
    await woken.flush(new Map([['notes', 9n]]));
    await woken.flush(new Map([['notes', 10n]]));
    expect(await onDisk()).to.deep.equal({ text: 'repaired', checkpoint: 1n });
    expect(said).to.have.length(1);
    expect(said[0]).to.match(/^projector notes: its read model was dropped and rebuilt/);

    // the rebuild goes on past the woken store's position: still its own
    await first.collection('notes').updateOne({ _id: 'n1' }, { $set: { text: 'repaired, 2' } });
    await first.flush(new Map([['notes', 11n]]));
    expect(await onDisk()).to.deep.equal({ text: 'repaired, 2', checkpoint: 11n });
  });
});
