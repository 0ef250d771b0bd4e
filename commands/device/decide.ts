import { checkRevision } from '../note/errors.js';
import { AlreadyExists, NotFound } from '../shared/errors.js';
import type { DeviceCommand } from './commands.js';
import type { DeviceEvent, DeviceFields } from './events.js';
import { checkDeviceFields, normalizeDeviceName } from './rules.js';
import type { DeviceState } from './state.js';

export function decideDevice(command: DeviceCommand, state: DeviceState): DeviceEvent[] {
  switch (command.type) {
    case 'RegisterDevice': {
      if (state.status !== 'none') throw new AlreadyExists('device already exists');
      const { deviceId, userId } = command.data;
      const fields: DeviceFields = {
        name: normalizeDeviceName(command.data.name),
        platform: command.data.platform.trim(),
      };
      checkDeviceFields(fields);
      return [{ type: 'DeviceRegistered', data: { deviceId, userId, ...fields } }];
    }
    case 'UpdateDevice': {
      if (state.status === 'none') throw new NotFound('device not found');
      checkRevision(command.data.expectedRevision, state.revision);
      const { name, platform } = command.data;
      const fields: DeviceFields = {
        name: name === undefined ? state.fields.name : normalizeDeviceName(name),
        platform: platform === undefined ? state.fields.platform : platform.trim(),
      };
      checkDeviceFields(fields);
      const same = fields.name === state.fields.name && fields.platform === state.fields.platform;
      return same ? [] : [{ type: 'DeviceUpdated', data: fields }];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}
