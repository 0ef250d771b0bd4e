import { expect } from 'chai';
import { AlreadyExists, InvalidArgument, NotFound } from '../../commands/shared/errors.js';
import { fakePlaces, type NotesHarness, startNotes } from './harness.js';
import { registerDevice, updateDevice } from '../../src/notes/actions/index.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('Device actions', () => {
  let h: NotesHarness;
  let u1: string;
  let u2: string;
  let users = 0;
  // One service per file (starting one costs ~0.3 s); each test gets users of its own.
  before(async () => {
    h = await startNotes({ places: fakePlaces() });
  });
  after(async () => {
    await h.stop();
  });
  beforeEach(() => {
    users++;
    u1 = `user-${users}-a`;
    u2 = `user-${users}-b`;
  });

  describe('When a device is registered and renamed', () => {
    it('lists it under its new name', async () => {
      // spec: "POST /v1/devices ... registers a device"; "PUT ... for example renames it"
      const { device } = await h.run(
        registerDevice(h.deps, h.ctx(u1), { userId: u1, name: 'Pixel', platform: 'android' }),
      );
      await h.run(
        updateDevice(h.deps, h.ctx(u1), { userId: u1, deviceId: device.id, name: 'Work phone' }),
      );
      expect(await h.queries.getDevice(u1, device.id)).to.deep.include({
        name: 'Work phone',
        platform: 'android',
      });
      expect((await h.queries.listDevices(u1)).map((d) => d.name)).to.deep.equal(['Work phone']);
    });
  });

  describe('When register input is at and past its bounds', () => {
    it('requires name and platform', async () => {
      for (const input of [
        { platform: 'ios' },
        { name: 'x' },
        { name: '', platform: 'ios' },
        { name: 'x', platform: '' },
      ]) {
        const error = await rejection(
          registerDevice(h.deps, h.ctx(u1), { userId: u1, ...input } as never),
        );
        expect(error, JSON.stringify(input)).to.be.instanceOf(InvalidArgument);
      }
      await registerDevice(h.deps, h.ctx(u1), {
        userId: u1,
        name: 'n'.repeat(100),
        platform: 'p'.repeat(50),
      });
      expect(
        await rejection(
          registerDevice(h.deps, h.ctx(u1), { userId: u1, name: 'n'.repeat(101), platform: 'p' }),
        ),
      ).to.be.instanceOf(InvalidArgument);
      expect(
        await rejection(
          registerDevice(h.deps, h.ctx(u1), { userId: u1, name: 'n', platform: 'p'.repeat(51) }),
        ),
      ).to.be.instanceOf(InvalidArgument);
    });
    it('refuses a second device with the same name', async () => {
      await h.run(
        registerDevice(h.deps, h.ctx(u1), { userId: u1, name: 'Pixel', platform: 'android' }),
      );
      expect(
        await rejection(
          registerDevice(h.deps, h.ctx(u1), { userId: u1, name: 'pixel', platform: 'ios' }),
        ),
      ).to.be.instanceOf(AlreadyExists);
      // another user may use the name
      await h.run(
        registerDevice(h.deps, h.ctx(u2), { userId: u2, name: 'Pixel', platform: 'android' }),
      );
    });
  });

  describe('When another user’s device is addressed', () => {
    it('answers exactly like a missing one', async () => {
      const { device } = await h.run(
        registerDevice(h.deps, h.ctx(u2), { userId: u2, name: 'iPad', platform: 'ios' }),
      );
      const a = (await rejection(
        updateDevice(h.deps, h.ctx(u1), { userId: u1, deviceId: device.id, name: 'mine' }),
      )) as Error;
      const b = (await rejection(
        updateDevice(h.deps, h.ctx(u1), { userId: u1, deviceId: 'missing', name: 'mine' }),
      )) as Error;
      expect(a).to.be.instanceOf(NotFound);
      expect(a.message).to.equal(b.message);
      expect(await rejection(h.queries.getDevice(u1, device.id))).to.be.instanceOf(NotFound);
      expect(await h.queries.listDevices(u1)).to.deep.equal([]);
    });
  });
});
