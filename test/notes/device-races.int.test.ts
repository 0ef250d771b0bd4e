/**
 * Device names racing, deterministically (one request pauses before a write while another runs
 * to its end). Spec: "PUT /v1/devices/{id} ... updates a device, for example renames it"; device
 * names are unique per user (README: a second device of one name is refused with 409).
 */
import { expect } from 'chai';
import { deviceStreamId } from '../../commands/device/index.js';
import { AlreadyExists } from '../../commands/shared/errors.js';
import { createNote, registerDevice, updateDevice } from '../../src/notes/actions/index.js';
import {
  fakePlaces,
  firstWrite,
  type NotesHarness,
  type Outcome,
  outcome,
  pausingBefore,
  startNotes,
} from './harness.js';

describe('Device writes racing each other', () => {
  let h: NotesHarness;
  let u: string;
  let users = 0;
  before(async () => {
    h = await startNotes({ places: fakePlaces() });
  });
  after(async () => h.stop());
  beforeEach(() => {
    u = `device-racer-${++users}`;
  });
  const register = async (name: string) =>
    (await h.run(registerDevice(h.deps, h.ctx(u), { userId: u, name, platform: 'ios' }))).device.id;
  const rename = (deps: typeof h.deps, deviceId: string, name: string) =>
    outcome(h.run(updateDevice(deps, h.ctx(u), { userId: u, deviceId, name })));
  const named = async (name: string) =>
    (await h.queries.listDevices(u)).filter((d) => d.name.toLowerCase() === name);
  const oneRefused = (outcomes: Outcome<unknown>[]) => {
    expect(
      outcomes.filter((o) => o.error === undefined),
      'one succeeds',
    ).to.have.length(1);
    const error = outcomes.find((o) => o.error)?.error;
    expect(error, String(error)).to.be.instanceOf(AlreadyExists);
  };

  for (const [where, pause] of [
    ['before it writes anything', () => firstWrite],
    ['just before its device event', (id: string) => (s: string) => s === deviceStreamId(u, id)],
  ] as const) {
    describe(`When a request pauses ${where} while another gives the same name`, () => {
      it('gives the name to one of two renames', async () => {
        const [a, b] = [await register('alpha'), await register('beta')];
        let other: Outcome<unknown> | undefined;
        const deps = pausingBefore(h.deps, pause(a), async () => {
          other = await rename(h.deps, b, 'dup');
        });
        oneRefused([await rename(deps, a, 'DUP'), other!]);
        expect(await named('dup')).to.have.length(1);
      });

      it('gives the name to one of a rename and a registration', async () => {
        const a = await register('alpha');
        let other: Outcome<unknown> | undefined;
        const deps = pausingBefore(h.deps, pause(a), async () => {
          other = await outcome(
            h.run(registerDevice(h.deps, h.ctx(u), { userId: u, name: 'dup', platform: 'x' })),
          );
        });
        oneRefused([await rename(deps, a, 'dup'), other!]);
        expect(await named('dup')).to.have.length(1);
      });

      it('gives the name to one of a registration and a rename', async () => {
        const b = await register('beta');
        let other: Outcome<unknown> | undefined;
        const registering = (s: string) => s.startsWith('notedevice-');
        const when = where.startsWith('before') ? firstWrite : registering;
        const deps = pausingBefore(h.deps, when, async () => {
          other = await rename(h.deps, b, 'dup');
        });
        const mine = await outcome(
          h.run(registerDevice(deps, h.ctx(u), { userId: u, name: 'Dup', platform: 'x' })),
        );
        oneRefused([mine, other!]);
        expect(await named('dup')).to.have.length(1);
      });
    });
  }

  describe('When a note names a device while another device is renamed to that name', () => {
    it('uses the renamed device instead of registering a second one of that name', async () => {
      // spec: "metadata ... device (device name; created if it does not exist)"
      const b = await register('beta');
      const deps = pausingBefore(h.deps, firstWrite, () =>
        h.run(updateDevice(h.deps, h.ctx(u), { userId: u, deviceId: b, name: 'Desk' })),
      );
      const { note } = await h.run(
        createNote(deps, h.ctx(u), { userId: u, content: 'x', metadata: { device: 'desk' } }),
      );
      expect(note.metadata.deviceId).to.equal(b);
      expect(await named('desk')).to.have.length(1);
    });
  });
});
