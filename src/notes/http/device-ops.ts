/** Devices: list, register, get, PUT (rename). */
import { etagFor } from '../../http/registry.js';
import {
  commandContext,
  defineNotesOp,
  expectedRevision,
  type NotesHttpDeps,
  settle,
} from './context.js';
import { presentDevice } from './present.js';
import { Device, DeviceCreateBody, DeviceList, DeviceUpdateBody, IdParam } from './schemas.js';

export function deviceOperations(deps: NotesHttpDeps) {
  const { actions, queries } = deps;

  async function deviceAnswer(userId: string, deviceId: string, status = 200) {
    const device = await queries.getDevice(userId, deviceId);
    return { status, body: presentDevice(device), headers: { ETag: etagFor(device.revision) } };
  }

  const listDevices = defineNotesOp({
    id: 'list_devices',
    method: 'get',
    path: '/v1/devices',
    summary: 'List your devices',
    tags: ['Devices'],
    response: DeviceList,
    errors: [401, 403],
    auth: 'bearer',
    async handler(ctx) {
      const devices = await queries.listDevices(ctx.principal.userId);
      return { body: { devices: devices.map(presentDevice) } };
    },
  });

  const registerDevice = defineNotesOp({
    id: 'register_device',
    method: 'post',
    path: '/v1/devices',
    summary: 'Register a device',
    tags: ['Devices'],
    body: DeviceCreateBody,
    response: Device,
    successStatus: 201,
    errors: [400, 401, 403, 409, 413, 415],
    auth: 'bearer',
    extraDescription: 'Device names are unique per user (case ignored; 409 otherwise).',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const result = await actions.registerDevice(
        { userId, ...ctx.body },
        commandContext(deps, ctx),
      );
      await settle(deps, result.position);
      const answer = await deviceAnswer(userId, result.device.id, 201);
      return {
        ...answer,
        headers: { ...answer.headers, Location: `/v1/devices/${result.device.id}` },
      };
    },
  });

  const getDevice = defineNotesOp({
    id: 'get_device',
    method: 'get',
    path: '/v1/devices/{id}',
    summary: 'Read one device',
    tags: ['Devices'],
    params: IdParam,
    response: Device,
    errors: [401, 403, 404],
    auth: 'bearer',
    handler: async (ctx) => deviceAnswer(ctx.principal.userId, ctx.params.id),
  });

  const updateDevice = defineNotesOp({
    id: 'update_device',
    method: 'put',
    path: '/v1/devices/{id}',
    summary: 'Update a device (e.g. rename it)',
    tags: ['Devices'],
    params: IdParam,
    body: DeviceUpdateBody,
    response: Device,
    errors: [400, 401, 403, 404, 409, 412, 413, 415],
    auth: 'bearer',
    extraDescription: 'Absent fields keep their value. Honours If-Match.',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const deviceId = ctx.params.id;
      const expected = await expectedRevision(
        ctx.ifMatch,
        async () => (await queries.getDevice(userId, deviceId)).revision,
        'device',
      );
      const result = await actions.updateDevice(
        { userId, deviceId, expectedRevision: expected, ...ctx.body },
        commandContext(deps, ctx),
      );
      await settle(deps, result.position);
      return deviceAnswer(userId, deviceId);
    },
  });

  return [listDevices, registerDevice, getDevice, updateDevice];
}
