/**
 * The most tags and devices one notes user may have holds under concurrent requests (README:
 * "The most holds for creations sent together too (20 at once under a most of 3 make 3, the
 * others answer 409)"), and "A note's new tags and device take their places in one intent before
 * any of them is made": a note refused for one makes none of the others it names.
 */
import { expect } from 'chai';
import { type Api, type ApiResponse, type NotesE2e, startNotesE2e } from './support.js';

const burst = 20;
const most = 3;

function statuses(answers: ApiResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('When a notes user sends many creations at once near the most tags or devices', function () {
  this.timeout(120_000);
  let e: NotesE2e;
  let users = 0;
  const user = async (): Promise<Api> =>
    e.api((await e.signIn(`crowd${++users}@example.com`)).token);
  const many = (send: (i: number) => Promise<ApiResponse>) =>
    Promise.all(Array.from({ length: burst }, (_, i) => send(i)));
  before(async () => {
    e = await startNotesE2e({
      NOTES_TAGS_PER_USER: String(most),
      NOTES_DEVICES_PER_USER: String(most),
    });
  });
  after(async () => e?.stop());

  it(`makes exactly ${most} of ${burst} create_tag sent together and answers the rest 409`, async () => {
    const api = await user();
    const answers = await many((i) => api('POST', '/v1/tags', { name: `Tag ${i}` }));
    expect(statuses(answers)).to.deep.equal({ 201: most, 409: burst - most });
    const refused = answers.find((a) => a.status === 409);
    expect(refused?.body.error).to.match(/the most one account may have \(NOTES_TAGS_PER_USER\)/);
    expect((await api('GET', '/v1/tags')).body.tags).to.have.length(most);
  });

  it(`registers exactly ${most} of ${burst} register_device sent together`, async () => {
    const api = await user();
    const answers = await many((i) =>
      api('POST', '/v1/devices', { name: `Device ${i}`, platform: 'ios' }),
    );
    expect(statuses(answers)).to.deep.equal({ 201: most, 409: burst - most });
    expect((await api('GET', '/v1/devices')).body.devices).to.have.length(most);
  });

  it(`makes exactly ${most} of ${burst} notes sent together that each name a new tag or device`, async () => {
    const api = await user();
    const tagged = await many((i) =>
      api('POST', '/v1/notes', { content: `note ${i}`, tags: [`New ${i}`] }),
    );
    expect(statuses(tagged)).to.deep.equal({ 201: most, 409: burst - most });
    expect((await api('GET', '/v1/tags')).body.tags).to.have.length(most);
    const fromDevices = await many((i) =>
      api('POST', '/v1/notes', { content: `sent ${i}`, metadata: { device: `Phone ${i}` } }),
    );
    expect(statuses(fromDevices)).to.deep.equal({ 201: most, 409: burst - most });
    expect((await api('GET', '/v1/devices')).body.devices).to.have.length(most);
    expect((await api('GET', '/v1/notes?limit=100')).body.notes).to.have.length(2 * most);
  });

  it('makes the one new tag that notes sent together all name, at the last place', async () => {
    const api = await user();
    for (const name of ['One', 'Two']) {
      expect((await api('POST', '/v1/tags', { name })).status).to.equal(201);
    }
    const answers = await many((i) =>
      api('POST', '/v1/notes', { content: `same ${i}`, tags: ['Shared', 'One'] }),
    );
    expect(statuses(answers)).to.deep.equal({ 201: burst });
    expect((await api('GET', '/v1/tags')).body.tags).to.have.length(most);
  });

  it('refuses a note whose new tags and device do not all fit and makes none of them', async () => {
    const api = await user();
    expect((await api('POST', '/v1/tags', { name: 'One' })).status).to.equal(201);
    expect((await api('POST', '/v1/tags', { name: 'Two' })).status).to.equal(201);
    const two = await api('POST', '/v1/notes', { content: 'x', tags: ['Three', 'Four'] });
    expect(two.status).to.equal(409);
    const tags = async () =>
      (await api('GET', '/v1/tags')).body.tags.map((t: { name: string }) => t.name);
    expect(await tags(), 'no tag left behind').to.deep.equal(['One', 'Two']);
    expect(two.body.error).to.equal(
      'you have 2 tags and 2 new ones would pass the most one account may have (NOTES_TAGS_PER_USER); delete one first',
    );
    for (let i = 0; i < most; i++) {
      const made = await api('POST', '/v1/devices', { name: `Device ${i}`, platform: 'ios' });
      expect(made.status).to.equal(201);
    }
    const withDevice = await api('POST', '/v1/notes', {
      content: 'y',
      tags: ['Three'],
      metadata: { device: 'Watch' },
    });
    expect(withDevice.status).to.equal(409);
    expect(await tags(), 'no tag left behind by the device').to.deep.equal(['One', 'Two']);
    expect((await api('GET', '/v1/notes')).body.notes, 'no note made').to.have.length(0);
    expect((await api('POST', '/v1/notes', { content: 'z', tags: ['Three'] })).status).to.equal(
      201,
    );
  });
});
