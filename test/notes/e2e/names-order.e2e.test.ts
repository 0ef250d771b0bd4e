/**
 * Tag and device lists in the order a person reads names (Unicode audit): "Äpfel" beside
 * "apple", "Éclair" beside "eclair2", "Zürich" after "zeta" — not after every ASCII letter,
 * where code units put accented names; digits compare as numbers.
 */
import { expect } from 'chai';
import { type Api, type Json, type NotesE2e, startNotesE2e } from './support.js';

describe('Notes lists of names (e2e)', function () {
  this.timeout(30_000);
  let e: NotesE2e;
  let api: Api;
  before(async () => {
    e = await startNotesE2e();
    api = e.api((await e.signIn('ada@example.com')).token);
  });
  after(async () => e.stop());

  it('lists tags and devices in alphabetical order, accented names among the others', async () => {
    for (const name of [
      'zebra',
      'Äpfel',
      'Ökologie',
      'apple',
      'Éclair',
      'eclair2',
      'tag10',
      'tag9',
    ]) {
      expect((await api('POST', '/v1/tags', { name })).status, name).to.equal(201);
    }
    const tags = (await api('GET', '/v1/tags')).body.tags.map((t: Json) => t.name);
    expect(tags).to.deep.equal([
      'Äpfel',
      'apple',
      'Éclair',
      'eclair2',
      'Ökologie',
      'tag9',
      'tag10',
      'zebra',
    ]);
    for (const name of ['Zürich', 'zeta', 'Ávila', 'Aachen']) {
      expect((await api('POST', '/v1/devices', { name, platform: 'ios' })).status, name).to.equal(
        201,
      );
    }
    const devices = (await api('GET', '/v1/devices')).body.devices.map((d: Json) => d.name);
    expect(devices).to.deep.equal(['Aachen', 'Ávila', 'zeta', 'Zürich']);
  });
});
