import { deviceDecider, type DeviceEvent } from '../../commands/device/index.js';
import { AlreadyExists, InvalidArgument, NotFound } from '../../commands/shared/errors.js';
import { RevisionMismatch } from '../../commands/shared/revision.js';
import { deciderSpec } from '../support/decider.js';

const given = deciderSpec(deviceDecider);
const register = {
  type: 'RegisterDevice' as const,
  data: { deviceId: 'd1', userId: 'u1', name: 'Pixel ', platform: 'android' },
};
const registered: DeviceEvent = {
  type: 'DeviceRegistered',
  data: { deviceId: 'd1', userId: 'u1', name: 'Pixel', platform: 'android' },
};

describe('Device decider', () => {
  describe('When a device is registered', () => {
    it('records it', () => {
      given([]).when(register).then([registered]);
    });
    it('requires name and platform', () => {
      // spec: "body `name` (required), `platform` (required)"
      given([])
        .when({ ...register, data: { ...register.data, name: '' } })
        .thenThrows(InvalidArgument, /name/);
      given([])
        .when({ ...register, data: { ...register.data, platform: ' ' } })
        .thenThrows(InvalidArgument, /platform/);
    });
    it('refuses a name or platform that shows as nothing or holds control characters', () => {
      given([])
        .when({ ...register, data: { ...register.data, name: '\u200b' } })
        .thenThrows(InvalidArgument, /name must contain a visible character/);
      given([])
        .when({ ...register, data: { ...register.data, platform: 'and\u0000roid' } })
        .thenThrows(InvalidArgument, /platform must not contain control characters/);
    });
    it('refuses to register the same id twice', () => {
      given([registered]).when(register).thenThrows(AlreadyExists);
    });
  });

  describe('When a device is renamed', () => {
    it('records the new name and keeps the platform', () => {
      given([registered])
        .when({ type: 'UpdateDevice', data: { name: 'Work phone' } })
        .then([{ type: 'DeviceUpdated', data: { name: 'Work phone', platform: 'android' } }]);
    });
    it('records nothing for an unchanged name, and checks If-Match', () => {
      given([registered])
        .when({ type: 'UpdateDevice', data: { name: 'Pixel' } })
        .then([]);
      given([registered])
        .when({ type: 'UpdateDevice', data: { name: 'x', expectedRevision: 5 } })
        .thenThrows(RevisionMismatch);
    });
    it('answers not found for an unknown device', () => {
      given([])
        .when({ type: 'UpdateDevice', data: { name: 'x' } })
        .thenThrows(NotFound);
    });
  });
});
