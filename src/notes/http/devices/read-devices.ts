/** list_devices and get_device. */
import { presentDevice } from '../present.js';
import { Device, DeviceList, DeviceIdParam } from '../schemas.js';
import { defineNotesOp, type NotesHttpDeps, type NotesOperation } from '../types.js';
import { deviceAnswer } from './shared.js';

export function listDevicesOperation(deps: NotesHttpDeps): NotesOperation {
  return defineNotesOp({
    id: 'list_devices',
    method: 'get',
    path: '/v1/devices',
    summary: 'List your devices',
    tags: ['Devices'],
    response: DeviceList,
    errors: [401, 403],
    auth: 'bearer',
    extraDescription:
      'By name, all in one answer: a user has at most NOTES_DEVICES_PER_USER devices (1,000 by default).',
    async handler(ctx) {
      const devices = await deps.queries.listDevices(ctx.principal.userId);
      return { body: { devices: devices.map(presentDevice) } };
    },
  });
}

export function getDeviceOperation(deps: NotesHttpDeps): NotesOperation {
  return defineNotesOp({
    id: 'get_device',
    versioned: true,
    resource: 'device',
    method: 'get',
    path: '/v1/devices/{id}',
    summary: 'Read one device',
    tags: ['Devices'],
    params: DeviceIdParam,
    response: Device,
    errors: [401, 403, 404, 412],
    auth: 'bearer',
    // of the device operations the hosted MCP server has list_devices only
    meta: { hostedMcp: false },
    handler: async (ctx) => deviceAnswer(deps, ctx.principal.userId, ctx.params.id),
  });
}
