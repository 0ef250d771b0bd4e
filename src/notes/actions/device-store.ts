/** What the device actions share: a device's stream, its snapshot, the device as a named thing. */
import {
  type DeviceCommand,
  type DeviceState,
  deviceDecider,
  deviceNameKey,
  deviceStreamId,
  type RegisterDevice,
} from '../../../commands/device/index.js';
import { NotFound } from '../../../commands/shared/errors.js';
import { deviceIds, findDeviceByName } from '../../../projections/devices/queries.js';
import { type ActionResult, type CommandContext, type NotesDeps, notesLimits } from './deps.js';
import type { Named } from './named.js';

export interface DeviceSnapshot {
  id: string;
  name: string;
  platform: string;
  revision: number;
}

export type DeviceResult = ActionResult & { device: DeviceSnapshot };

export function snapshot(state: DeviceState): DeviceSnapshot {
  if (state.status === 'absent') throw new NotFound('device not found');
  return { id: state.deviceId, ...state.fields, revision: state.revision };
}

/** The device's state as stored; with `context`, whether its Idempotency-Key is on the stream. */
export function loadDevice(
  deps: NotesDeps,
  userId: string,
  deviceId: string,
  context?: CommandContext,
) {
  return deps.commandHandler.load(deviceStreamId(userId, deviceId), deviceDecider, context);
}

export async function sendToDevice(
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

export function registration(
  deviceId: string,
  { userId, name, platform }: { userId: string; name: string; platform: string },
): RegisterDevice {
  return { type: 'RegisterDevice', data: { deviceId, userId, name, platform } };
}

/** The user's devices as named.ts sees them: a name is held by a registered device. */
export function namedDevices(deps: NotesDeps, userId: string): Named<DeviceResult> {
  return {
    kind: 'device',
    userId,
    keyOf: deviceNameKey,
    findByName: (name) => findDeviceByName(deps.readStore, userId, name),
    listedIds: () => deviceIds(deps.readStore, userId),
    most: (deps.limits ?? notesLimits).devicesPerUser,
    setting: 'NOTES_DEVICES_PER_USER',
    async load(deviceId) {
      const { state, revision } = await loadDevice(deps, userId, deviceId);
      return {
        revision,
        liveName: state.status === 'registered' ? state.fields.name : null,
        answer: () => ({ device: snapshot(state), revision, position: null, replayed: false }),
      };
    },
  };
}
