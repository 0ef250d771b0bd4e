/**
 * Device actions: register, update (rename), and `ensureDevice`, which finds or registers the
 * device a note's metadata names. Device names are unique per user (case and surrounding space
 * ignored) because notes refer to devices by name; like tags, a device registered for a name
 * first tries an id derived from (user, name), so concurrent first uses of a name converge.
 */
import {
  type DeviceState,
  deviceDecider,
  deviceNameKey,
  deviceStreamId,
  unknownPlatform,
} from '../../../commands/device/index.js';
import { AlreadyExists, NotFound } from '../../../commands/shared/errors.js';
import { findDeviceByName } from '../../../projections/devices/queries.js';
import {
  parseInput,
  type RegisterDeviceInput,
  registerDeviceInput,
  type UpdateDeviceInput,
  updateDeviceInput,
} from './input.js';
import {
  type ActionResult,
  type CommandContext,
  checkId,
  checkUser,
  derivedId,
  newId,
  type NotesActionDeps,
} from './support.js';

export interface DeviceSnapshot {
  id: string;
  name: string;
  platform: string;
  revision: number;
}

export type DeviceResult = ActionResult & { device: DeviceSnapshot };

function snapshot(state: DeviceState): DeviceSnapshot {
  if (state.status === 'none') throw new NotFound('device not found');
  return { id: state.deviceId, ...state.fields, revision: state.revision };
}

export function deviceActions(deps: NotesActionDeps) {
  const { commands, readStore } = deps;
  const load = (userId: string, deviceId: string) =>
    commands.load(deviceStreamId(userId, deviceId), deviceDecider);

  async function register(
    userId: string,
    fields: RegisterDeviceInput,
    context: CommandContext,
    reuse: boolean,
  ): Promise<DeviceResult> {
    const key = deviceNameKey(fields.name);
    const clash = (name: string) => new AlreadyExists(`a device named "${name}" already exists`);
    const existing = await findDeviceByName(readStore, userId, fields.name);
    if (existing) {
      if (!reuse) throw clash(existing.name);
      const { state, revision } = await load(userId, existing.id);
      return { device: snapshot(state), revision, position: null, replayed: false };
    }
    const attempt = async (deviceId: string): Promise<DeviceResult> => {
      const result = await commands.handle(
        deviceStreamId(userId, deviceId),
        deviceDecider,
        { type: 'RegisterDevice', data: { deviceId, userId, ...fields } },
        context,
      );
      const { revision, position, replayed } = result;
      return { device: snapshot(result.state), revision, position, replayed };
    };
    const namedId = derivedId('device', userId, key);
    try {
      return await attempt(namedId);
    } catch (error) {
      if (!(error instanceof AlreadyExists)) throw error;
    }
    const { state, revision } = await load(userId, namedId);
    if (state.status === 'registered' && deviceNameKey(state.fields.name) === key) {
      if (!reuse) throw clash(state.fields.name);
      return { device: snapshot(state), revision, position: null, replayed: false };
    }
    return attempt(newId(context, 'device', userId, key));
  }

  return {
    async registerDevice(
      request: { userId: string } & RegisterDeviceInput,
      context: CommandContext,
    ): Promise<DeviceResult> {
      checkUser(request.userId);
      const input = parseInput(registerDeviceInput, request);
      return register(request.userId, input, context, false);
    },

    async updateDevice(
      request: { userId: string; deviceId: string; expectedRevision?: number } & UpdateDeviceInput,
      context: CommandContext,
    ): Promise<DeviceResult> {
      const { userId, deviceId, expectedRevision } = request;
      checkUser(userId);
      checkId(deviceId, 'device');
      const input = parseInput(updateDeviceInput, request);
      if (input.name !== undefined) {
        const other = await findDeviceByName(readStore, userId, input.name);
        if (other && other.id !== deviceId) {
          throw new AlreadyExists(`a device named "${other.name}" already exists`);
        }
      }
      const result = await commands.handle(
        deviceStreamId(userId, deviceId),
        deviceDecider,
        { type: 'UpdateDevice', data: { ...input, expectedRevision } },
        context,
      );
      const { revision, position, replayed } = result;
      return { device: snapshot(result.state), revision, position, replayed };
    },

    /** The device a note names: found by name, or registered with platform "unknown". */
    async ensureDevice(
      userId: string,
      name: string,
      context: CommandContext,
    ): Promise<DeviceResult> {
      return register(userId, { name, platform: unknownPlatform }, context, true);
    },
  };
}
