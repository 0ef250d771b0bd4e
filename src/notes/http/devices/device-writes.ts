/** register_device and update_device (e.g. a rename). Names are unique per user, case ignored. */
import { registerDevice, updateDevice } from '../../actions/index.js';
import { created, etagOf, precondition, refusingStale } from '../resource.js';
import { Device, DeviceCreateBody, DeviceUpdateBody, DeviceIdParam } from '../schemas.js';
import {
  commandContext,
  defineNotesOp,
  type NotesHttpDeps,
  type NotesOperation,
} from '../types.js';
import { deviceAnswer } from './shared.js';

export function registerDeviceOperation(deps: NotesHttpDeps): NotesOperation {
  return defineNotesOp({
    id: 'register_device',
    versioned: true,
    createsInCollection: true,
    method: 'post',
    path: '/v1/devices',
    summary: 'Register a device',
    tags: ['Devices'],
    body: DeviceCreateBody,
    response: Device,
    successStatus: 201,
    errors: [400, 401, 403, 409, 412, 413, 415],
    auth: 'bearer',
    // device writes: the API and the local MCP server only
    meta: { hostedMcp: false },
    extraDescription:
      'Device names are unique per user (case ignored; 409 otherwise). A user has at most 1,000 devices by default (the server setting NOTES_DEVICES_PER_USER; 409 past it).',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const context = commandContext(deps, ctx.principal, ctx);
      const { device, position } = await registerDevice(deps, context, { userId, ...ctx.body });
      return {
        position,
        readBack: async () =>
          created(
            await deviceAnswer(deps, userId, device.id, device.revision),
            `/v1/devices/${device.id}`,
          ),
      };
    },
  });
}

export function updateDeviceOperation(deps: NotesHttpDeps): NotesOperation {
  return defineNotesOp({
    id: 'update_device',
    versioned: true,
    method: 'put',
    path: '/v1/devices/{id}',
    summary: 'Update a device (e.g. rename it)',
    tags: ['Devices'],
    params: DeviceIdParam,
    body: DeviceUpdateBody,
    response: Device,
    errors: [400, 401, 403, 404, 409, 412, 413, 415],
    auth: 'bearer',
    // device writes: the API and the local MCP server only
    meta: { hostedMcp: false },
    extraDescription: 'Absent fields keep their value. Honours If-Match.',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const deviceId = ctx.params.id;
      const current = async () => (await deps.queries.getDevice(userId, deviceId)).revision;
      const etag = () => etagOf(deviceAnswer(deps, userId, deviceId));
      const asked = await precondition(ctx, current, 'device', etag);
      const context = commandContext(deps, ctx.principal, ctx);
      const { position, device } = await refusingStale(ctx.ifMatch, 'device', etag, () =>
        updateDevice(deps, context, { userId, deviceId, ...asked, ...ctx.body }),
      );
      return { position, readBack: () => deviceAnswer(deps, userId, deviceId, device.revision) };
    },
  });
}
