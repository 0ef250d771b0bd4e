/**
 * Device actions: register, update (rename), and `planDevice`, which finds or registers the
 * device a note's metadata names. Device names are unique per user; named.ts says how
 * concurrent registrations and renames of one name are made exclusive; device-store.ts holds a
 * device's stream, its snapshot, and the device as a named thing.
 */
import {
  type DeviceCommand,
  deviceDecider,
  deviceNameKey,
  unknownPlatform,
  validDeviceName,
  validPlatform,
} from '../../../commands/device/index.js';
import { RevisionMismatch } from '../../../commands/shared/revision.js';
import {
  again,
  asSent,
  type CommandContext,
  checkId,
  checkUser,
  derivedId,
  keyedBy,
  type NotesDeps,
  type Precondition,
  unkeyed,
  untilSettled,
} from './deps.js';
import {
  type DeviceResult,
  loadDevice,
  namedDevices,
  registration,
  sendToDevice,
} from './device-store.js';
import { type CreateOptions, claimName, createNamed, keyedId, planNamed } from './named.js';
import type { Wanted } from './named-places.js';

export type { DeviceResult, DeviceSnapshot } from './device-store.js';

export async function registerDevice(
  deps: NotesDeps,
  context: CommandContext,
  input: { userId: string; name: string; platform: string },
): Promise<DeviceResult> {
  const { userId, name, platform } = input;
  checkUser(userId);
  // the name is looked up before the decider sees it, so its rules come first
  validDeviceName(name);
  validPlatform(platform);
  const keyed = keyedBy(context, { type: 'RegisterDevice', name, platform });
  const key = context.idempotencyKey;
  if (key) {
    // landed at the key's id, or — before name claims — at the name's id or name and key's
    const nameKey = deviceNameKey(name);
    for (const [deviceId, sent] of [
      [keyedId('device', userId, key), keyed],
      [derivedId('device', userId, nameKey), context],
      [derivedId('device', userId, nameKey, key), context],
    ] as const) {
      if (!(await loadDevice(deps, userId, deviceId, sent)).retry) continue;
      return sendToDevice(deps, sent, userId, deviceId, registration(deviceId, input));
    }
  }
  const at = key ? keyedId('device', userId, key) : undefined;
  return register(deps, keyed, input, { reuse: false, keyedId: at });
}

/** Absent fields keep their value (a rename sends only `name`). */
export async function updateDevice(
  deps: NotesDeps,
  context: CommandContext,
  input: {
    userId: string;
    deviceId: string;
    name?: string;
    platform?: string;
  } & Precondition,
): Promise<DeviceResult> {
  const { userId, deviceId, expectedRevision, ifMatch, ...fields } = input;
  checkUser(userId);
  checkId(deviceId, 'device');
  const request = { deviceId, ...fields, expectedRevision, ifMatch };
  const keyed = keyedBy(context, { type: 'UpdateDevice', ...asSent(request) });
  return untilSettled(async () => {
    const { state, revision, retry } = await loadDevice(deps, userId, deviceId, keyed);
    const command: DeviceCommand = {
      type: 'UpdateDevice',
      data: {
        ...fields,
        expectedRevision: retry ? expectedRevision : (expectedRevision ?? revision),
      },
    };
    // a retry is answered from its first attempt; else what the decider refuses, now
    const renamed =
      !retry &&
      deviceDecider.decide(command, state).length > 0 &&
      state.status === 'registered' &&
      fields.name !== undefined &&
      deviceNameKey(fields.name) !== deviceNameKey(state.fields.name);
    if (renamed) {
      const target = { id: deviceId, revision };
      await claimName(deps, context, namedDevices(deps, userId), target, fields.name!);
    }
    try {
      return await sendToDevice(deps, keyed, userId, deviceId, command);
    } catch (error) {
      // renamed or changed since it was loaded: again, unless the client named its revision
      if (error instanceof RevisionMismatch && expectedRevision === undefined) return again;
      throw error;
    }
  }, 'the device');
}

/**
 * The device a note names: found by name, or registered with platform "unknown". Planned first:
 * `wanted` is the new one it would register, whose place the note takes (named-places.ts) with
 * its new tags' before `ensure` registers anything.
 */
export async function planDevice(
  deps: NotesDeps,
  context: CommandContext,
  input: { userId: string; name: string },
): Promise<{ wanted: Wanted | null; ensure(): Promise<DeviceResult> }> {
  const named = namedDevices(deps, input.userId);
  const plan = await planNamed(deps, named, input.name, context.now);
  if ('held' in plan) return { wanted: null, ensure: async () => plan.held };
  // the note's key is the note's: a device it names is anyone's afterwards
  const device = { ...input, platform: unknownPlatform };
  return {
    wanted: { named, ids: [plan.id] },
    ensure: () =>
      register(deps, unkeyed(context), device, { reuse: true, placed: new Set([plan.id]) }),
  };
}

/** Register a device named `name`; `reuse` answers with an existing same-named one instead of 409. */
function register(
  deps: NotesDeps,
  context: CommandContext,
  input: { userId: string; name: string; platform: string },
  options: Pick<CreateOptions<unknown>, 'reuse' | 'keyedId' | 'placed'>,
): Promise<DeviceResult> {
  // what the decider refuses is refused before the name is claimed
  deviceDecider.decide(registration('', input), deviceDecider.initialState());
  return createNamed(deps, context, namedDevices(deps, input.userId), input.name, {
    ...options,
    create: (deviceId) =>
      sendToDevice(deps, context, input.userId, deviceId, registration(deviceId, input)),
  });
}
