/**
 * Device actions: register, update (rename), and `ensureDevice`, which finds or registers the
 * device a note's metadata names. Device names are unique per user; named.ts says how
 * concurrent first uses of one name converge.
 */
import {
  type DeviceCommand,
  type DeviceState,
  deviceDecider,
  deviceNameKey,
  deviceStreamId,
  unknownPlatform,
  validDeviceName,
  validPlatform,
} from '../../../commands/device/index.js';
import { AlreadyExists, NotFound } from '../../../commands/shared/errors.js';
import { findDeviceByName } from '../../../projections/devices/queries.js';
import {
  type ActionResult,
  type CommandContext,
  checkId,
  checkUser,
  type NotesDeps,
} from './deps.js';
import { createNamed } from './named.js';

export interface DeviceSnapshot {
  id: string;
  name: string;
  platform: string;
  revision: number;
}

export type DeviceResult = ActionResult & { device: DeviceSnapshot };

export async function registerDevice(
  deps: NotesDeps,
  context: CommandContext,
  input: { userId: string; name: string; platform: string },
): Promise<DeviceResult> {
  checkUser(input.userId);
  // the name is looked up before the decider sees it, so its rules come first
  validDeviceName(input.name);
  validPlatform(input.platform);
  return register(deps, context, input, false);
}

/** Absent fields keep their value (a rename sends only `name`). */
export async function updateDevice(
  deps: NotesDeps,
  context: CommandContext,
  input: {
    userId: string;
    deviceId: string;
    expectedRevision?: number;
    name?: string;
    platform?: string;
  },
): Promise<DeviceResult> {
  const { userId, deviceId, expectedRevision, ...fields } = input;
  checkUser(userId);
  checkId(deviceId, 'device');
  if (fields.name !== undefined) {
    const other = await findDeviceByName(deps.readStore, userId, fields.name);
    if (other && other.id !== deviceId) {
      throw new AlreadyExists(`a device named "${other.name}" already exists`);
    }
  }
  return send(deps, context, userId, deviceId, {
    type: 'UpdateDevice',
    data: { ...fields, expectedRevision },
  });
}

/** The device a note names: found by name, or registered with platform "unknown". */
export async function ensureDevice(
  deps: NotesDeps,
  context: CommandContext,
  input: { userId: string; name: string },
): Promise<DeviceResult> {
  return register(deps, context, { ...input, platform: unknownPlatform }, true);
}

function snapshot(state: DeviceState): DeviceSnapshot {
  if (state.status === 'absent') throw new NotFound('device not found');
  return { id: state.deviceId, ...state.fields, revision: state.revision };
}

async function send(
  deps: NotesDeps,
  context: CommandContext,
  userId: string,
  deviceId: string,
  command: DeviceCommand,
): Promise<DeviceResult> {
  const result = await deps.commandHandler.handle(
    deviceStreamId(userId, deviceId),
    deviceDecider,
    command,
    context,
  );
  const { revision, position, replayed } = result;
  return { device: snapshot(result.state), revision, position, replayed };
}

/** Register a device named `name`; `reuse` answers with an existing same-named one instead of 409. */
function register(
  deps: NotesDeps,
  context: CommandContext,
  { userId, name, platform }: { userId: string; name: string; platform: string },
  reuse: boolean,
): Promise<DeviceResult> {
  return createNamed(
    context,
    {
      kind: 'device',
      userId,
      name,
      keyOf: deviceNameKey,
      findByName: (shown) => findDeviceByName(deps.readStore, userId, shown),
      async load(deviceId) {
        const { state, revision } = await deps.commandHandler.load(
          deviceStreamId(userId, deviceId),
          deviceDecider,
        );
        return {
          liveName: state.status === 'registered' ? state.fields.name : null,
          answer: () => ({ device: snapshot(state), revision, position: null, replayed: false }),
        };
      },
      create: (deviceId) =>
        send(deps, context, userId, deviceId, {
          type: 'RegisterDevice',
          data: { deviceId, userId, name, platform },
        }),
    },
    reuse,
  );
}
