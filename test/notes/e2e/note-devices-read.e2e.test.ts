/**
 * A note shows its device by name, and a page of notes reads only the devices its notes name:
 * the spec sets no limit on a user's devices, and reading all of them for every note answer
 * made each GET of a note cost ~1 s at 10,000 devices (0.86–1.24 s, against 0.16 s for a list
 * page of notes without one).
 */
import { expect } from 'chai';
import { devicesCollection } from '../../../projections/devices/document.js';
import type { Filter } from '../../../src/readstore/types.js';
import { type NotesE2e, startNotesE2e } from './support.js';

describe('Device names on notes (e2e)', function () {
  this.timeout(30_000);
  let e: NotesE2e;
  before(async () => {
    e = await startNotesE2e();
  });
  after(() => e.stop());

  /** the filters of the devices read model's finds while `run` runs (the live store, counted) */
  async function deviceFinds(run: () => Promise<void>): Promise<Filter[]> {
    const store = e.t.runtime.stores.readStore;
    const collection = store.collection.bind(store);
    const seen: Filter[] = [];
    store.collection = ((name: string) => {
      const c = collection(name);
      if (name !== devicesCollection) return c;
      return Object.assign(Object.create(c), {
        find: (filter: Filter, options?: object) => {
          seen.push(filter);
          return c.find(filter, options);
        },
      });
    }) as typeof store.collection;
    try {
      await run();
    } finally {
      store.collection = collection;
    }
    return seen;
  }

  describe('When the user has other devices than the note names', () => {
    it('shows the note’s device by name and reads only that device', async () => {
      const api = e.api((await e.signIn('dev@example.com')).token);
      for (const name of ['phone', 'tablet', 'watch']) {
        expect((await api('POST', '/v1/devices', { name, platform: 'ios' })).status).to.equal(201);
      }
      const note = await api('POST', '/v1/notes', { content: 'x', metadata: { device: 'Tablet' } });
      expect(note.status, note.text).to.equal(201);
      const finds = await deviceFinds(async () => {
        const read = await api('GET', `/v1/notes/${note.body.id}`);
        expect(read.body.metadata.device).to.equal('tablet');
        const listed = await api('GET', '/v1/notes');
        expect(listed.body.notes[0].metadata.device).to.equal('tablet');
      });
      expect(finds).to.have.length(2);
      for (const filter of finds) expect(filter).to.have.property('_id');
    });
  });
});
