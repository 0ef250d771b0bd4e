/**
 * A data folder whose tags were deleted before deleted tags' children moved up to their parent
 * (tag-deletes.e2e.test.ts) shows them there on its next start: the tags projector carries
 * version 2, and a read model built by another version is replayed (README, Upgrades).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { checkpointId } from '../../../projections/shared/projector.js';
import { tagDocId, tagsCollection } from '../../../projections/tags/document.js';
import { tagsProjector } from '../../../projections/tags/projector.js';
import { openEmbeddedReadStore } from '../../../src/readstore/embedded/index.js';
import { tempDir } from '../../support/stores.js';
import { type Json, startNotesE2e } from './support.js';

/** The tags read model as version 1 left it: a deleted tag's child still names it. */
async function asVersionOne(dir: string, userId: string, childId: string, parentId: string) {
  const store = await openEmbeddedReadStore({ path: join(dir, 'store.sqlite') });
  try {
    const current = checkpointId(tagsProjector());
    const position = (await store.checkpoints()).get(current)!;
    await store
      .collection(tagsCollection)
      .updateOne({ _id: tagDocId(userId, childId) }, { $set: { parentId } });
    await store.deleteCheckpoint(current);
    await store.flush(new Map([['note-tags', position]]));
  } finally {
    await store.close();
  }
}

describe('When a data folder with tags deleted by an earlier version starts again (e2e)', () => {
  it('lists the deleted tags’ children under their parents', async function () {
    this.timeout(60_000);
    const dir = tempDir('note-tags-upgrade-');
    try {
      const e = await startNotesE2e({ DATA_DIR: dir });
      const api = e.api((await e.signIn('ada@example.com')).token);
      const work = (await api('POST', '/v1/tags', { name: 'Work' })).body;
      const projects = (await api('POST', '/v1/tags', { name: 'Projects', parentId: work.id }))
        .body;
      const apollo = (await api('POST', '/v1/tags', { name: 'Apollo', parentId: projects.id }))
        .body;
      expect((await api('DELETE', `/v1/tags/${projects.id}`)).status).to.equal(204);
      const userId = decodeJwt((await e.signIn('ada@example.com')).token).sub as string;
      await e.stop();
      await asVersionOne(dir, userId, apollo.id, projects.id);

      const again = await startNotesE2e({ DATA_DIR: dir });
      try {
        const listed = await again.api((await again.signIn('ada@example.com')).token)(
          'GET',
          '/v1/tags',
        );
        const parents = Object.fromEntries(listed.body.tags.map((t: Json) => [t.name, t.parentId]));
        expect(parents).to.deep.equal({ Apollo: work.id, Work: null });
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
