import { checkRevision } from '../shared/revision.js';
import { AlreadyExists, NotFound } from '../shared/errors.js';
import type { DeviceEvent, DeviceFields } from './events.js';
import { validDeviceName, validPlatform } from './rules.js';
import type { DeviceState } from './state.js';

export type RegisterDevice = {
  type: 'RegisterDevice';
  data: { deviceId: string; userId: string; name: string; platform: string };
};

/** Absent fields keep their value (a rename sends only `name`). */
export type UpdateDevice = {
  type: 'UpdateDevice';
  data: { name?: string; platform?: string; expectedRevision?: number };
};

export type DeviceCommand = RegisterDevice | UpdateDevice;

export function decideDevice(command: DeviceCommand, state: DeviceState): DeviceEvent[] {
  switch (command.type) {
    case 'RegisterDevice': {
      if (state.status !== 'absent') throw new AlreadyExists('device already exists');
      const { deviceId, userId } = command.data;
      const fields: DeviceFields = {
        name: validDeviceName(command.data.name),
        platform: validPlatform(command.data.platform),
      };
      return [{ type: 'DeviceRegistered', data: { deviceId, userId, ...fields } }];
    }
    case 'UpdateDevice': {
      if (state.status === 'absent') throw new NotFound('device not found');
      checkRevision(command.data.expectedRevision, state.revision);
      const { name, platform } = command.data;
      const fields: DeviceFields = {
        name: name === undefined ? state.fields.name : validDeviceName(name),
        platform: platform === undefined ? state.fields.platform : validPlatform(platform),
      };
      const same = fields.name === state.fields.name && fields.platform === state.fields.platform;
      return same ? [] : [{ type: 'DeviceUpdated', data: fields }];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}
