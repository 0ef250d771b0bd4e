import type { DeviceEvent, DeviceFields } from './events.js';

export type DeviceState =
  | { status: 'absent'; revision: -1 }
  | {
      status: 'registered';
      deviceId: string;
      userId: string;
      fields: DeviceFields;
      revision: number;
    };

export function initialDeviceState(): DeviceState {
  return { status: 'absent', revision: -1 };
}

export function evolveDevice(state: DeviceState, event: DeviceEvent): DeviceState {
  const revision = state.revision + 1;
  switch (event.type) {
    case 'DeviceRegistered': {
      const { deviceId, userId, ...fields } = event.data;
      return { status: 'registered', deviceId, userId, fields, revision };
    }
    case 'DeviceUpdated':
      return state.status === 'absent' ? state : { ...state, fields: { ...event.data }, revision };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}
