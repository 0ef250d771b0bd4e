/** The device aggregate: one stream per registered device, `notedevice-<userId>.<deviceId>`. */
import { splitUserScopedStream } from '../shared/user-scoped.js';
import type { Decider } from '../shared/decider.js';
import { decideDevice, type DeviceCommand } from './decide.js';
import type { DeviceEvent } from './events.js';
import { type DeviceState, evolveDevice, initialDeviceState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './rules.js';
export * from './state.js';

export const deviceDecider: Decider<DeviceState, DeviceCommand, DeviceEvent> = {
  initialState: initialDeviceState,
  evolve: evolveDevice,
  decide: decideDevice,
};

export const deviceStreamPrefix = 'notedevice-';

export function deviceStreamId(userId: string, deviceId: string): string {
  return `${deviceStreamPrefix}${userId}.${deviceId}`;
}

export function parseDeviceStreamId(streamId: string): { userId: string; deviceId: string } | null {
  const parts = splitUserScopedStream(deviceStreamPrefix, streamId);
  return parts && { userId: parts.userId, deviceId: parts.id };
}
