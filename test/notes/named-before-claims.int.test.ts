/**
 * Tags and devices stored before names were claimed (no claim streams, the events written as
 * the service wrote them then): their names stay taken, notes naming them reuse them, and a
 * keyed create from then is still answered as its first attempt.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { AlreadyExists } from '../../commands/shared/errors.js';
import { deviceStreamId } from '../../commands/device/index.js';
import { tagStreamId } from '../../commands/tag/index.js';
import {
  createNote,
  createTag,
  deleteTag,
  derivedId,
  registerDevice,
  updateDevice,
  updateTag,
} from '../../src/notes/actions/index.js';
import { hashCommand } from '../../src/write/batch.js';
import { fakePlaces, type NotesHarness, outcome, startNotes } from './harness.js';

describe('Names given before name claims existed', () => {
  let h: NotesHarness;
  const u = 'legacy-user';
  const legacy = derivedId('tag', u, 'legacy');
  const renamed = derivedId('tag', u, 'old');
  const keyedTag = derivedId('tag', u, 'keyed');
  const desk = derivedId('device', u, 'desk');
  const created = (tagId: string, name: string) => ({
    type: 'NoteTagCreated',
    data: { tagId, userId: u, name, color: null, parentId: null },
  });

  before(async () => {
    h = await startNotes({ places: fakePlaces() });
    const append = async (
      stream: string,
      events: { type: string; data: unknown }[],
      key?: string,
    ) => {
      const metadata = { actor: u, occurredAt: 1, correlationId: randomUUID(), causationId: null };
      const keyed = key
        ? {
            idempotencyKey: key,
            commandHash: hashCommand({
              type: 'CreateTag',
              data: { ...(events[0]!.data as object), parent: null },
            }),
          }
        : {};
      const { position } = await h.stores.eventStore.appendToStream(
        stream,
        events.map((e) => ({ ...e, metadata: { ...metadata, ...keyed } })),
        { expectedRevision: 'no_stream' },
      );
      await h.engine.waitFor(position);
    };
    await append(tagStreamId(u, legacy), [created(legacy, 'Legacy')]);
    const moved = { type: 'NoteTagUpdated', data: { name: 'Moved', color: null, parentId: null } };
    await append(tagStreamId(u, renamed), [created(renamed, 'old'), moved]);
    await append(tagStreamId(u, keyedTag), [created(keyedTag, 'keyed')], 'key-then');
    const device = { deviceId: desk, userId: u, name: 'Desk', platform: 'ios' };
    await append(deviceStreamId(u, desk), [{ type: 'DeviceRegistered', data: device }]);
  });
  after(async () => h.stop());

  it('keeps them taken against creates and renames', async () => {
    for (const name of ['legacy', 'MOVED']) {
      const error = (await outcome(createTag(h.deps, h.ctx(u), { userId: u, name }))).error;
      expect(error, name).to.be.instanceOf(AlreadyExists);
    }
    const other = (await h.run(createTag(h.deps, h.ctx(u), { userId: u, name: 'other' }))).tag.id;
    for (const name of ['Legacy', 'moved']) {
      const rename = updateTag(h.deps, h.ctx(u), { userId: u, tagId: other, name });
      expect((await outcome(rename)).error, name).to.be.instanceOf(AlreadyExists);
    }
    const device = registerDevice(h.deps, h.ctx(u), { userId: u, name: 'desk', platform: 'x' });
    expect((await outcome(device)).error).to.be.instanceOf(AlreadyExists);
    const mine = (
      await h.run(registerDevice(h.deps, h.ctx(u), { userId: u, name: 'Laptop', platform: 'x' }))
    ).device.id;
    const rename = updateDevice(h.deps, h.ctx(u), { userId: u, deviceId: mine, name: 'DESK' });
    expect((await outcome(rename)).error).to.be.instanceOf(AlreadyExists);
  });

  it('lets notes reuse them, and makes a new tag for a name the old one left', async () => {
    const { note } = await h.run(
      createNote(h.deps, h.ctx(u), {
        userId: u,
        content: 'x',
        tags: ['LEGACY', 'moved', 'old'],
        metadata: { device: 'desk' },
      }),
    );
    expect(note.tags.slice(0, 2)).to.deep.equal([legacy, renamed]);
    expect(note.tags[2]).to.not.equal(renamed);
    expect((await h.queries.getTag(u, note.tags[2]!)).name).to.equal('old');
    expect(note.metadata.deviceId).to.equal(desk);
  });

  it('answers a keyed create made then with its first result', async () => {
    const context = h.ctx(u, { idempotencyKey: 'key-then' });
    const retry = await h.run(createTag(h.deps, context, { userId: u, name: 'keyed' }));
    expect(retry).to.deep.include({ replayed: true });
    expect(retry.tag.id).to.equal(keyedTag);
  });

  it('frees a name when its old tag is renamed or deleted', async () => {
    await h.run(updateTag(h.deps, h.ctx(u), { userId: u, tagId: legacy, name: 'LEGACY' }));
    await h.run(deleteTag(h.deps, h.ctx(u), { userId: u, tagId: legacy }));
    const again = await h.run(createTag(h.deps, h.ctx(u), { userId: u, name: 'legacy' }));
    expect(again.tag.id).to.not.equal(legacy);
    await h.run(updateTag(h.deps, h.ctx(u), { userId: u, tagId: renamed, name: 'Renamed' }));
    await h.run(createTag(h.deps, h.ctx(u), { userId: u, name: 'moved' }));
  });
});
