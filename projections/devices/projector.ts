/** Projects device events into `note_devices`; one position-guarded update per event. */
import {
  deviceEventTypes,
  deviceNameKey,
  deviceStreamPrefix,
  parseDeviceEvent,
  parseDeviceStreamId,
} from '../../commands/device/index.js';
import type { Update } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { type DeviceDoc, deviceDocId, devicesCollection } from './document.js';

export function devicesProjector(): Projector {
  return {
    name: 'note-devices',
    collections: [devicesCollection],
    filter: { streamPrefixes: [deviceStreamPrefix], eventTypes: deviceEventTypes },
    async setup(store) {
      await store
        .collection(devicesCollection)
        .createIndex({ keys: { userId: 1, nameKey: 1 }, name: 'by_user_name' });
    },
    async apply(recorded, store) {
      const ids = parseDeviceStreamId(recorded.streamId);
      const event = parseDeviceEvent(recorded);
      if (!ids || !event) return;
      const at = recorded.metadata.occurredAt;
      let update: Update;
      switch (event.type) {
        case 'DeviceRegistered': {
          const { name, platform } = event.data;
          const doc: Omit<DeviceDoc, '_id'> = {
            id: ids.deviceId,
            userId: ids.userId,
            name,
            nameKey: deviceNameKey(name),
            platform,
            createdAt: at,
            updatedAt: at,
            revision: recorded.revision,
          };
          update = { $set: doc };
          break;
        }
        case 'DeviceUpdated': {
          const { name, platform } = event.data;
          update = {
            $set: {
              name,
              nameKey: deviceNameKey(name),
              platform,
              updatedAt: at,
              revision: recorded.revision,
            },
          };
          break;
        }
        default: {
          const _exhaustive: never = event;
          return _exhaustive;
        }
      }
      await guardedUpdate(
        store.collection<DeviceDoc>(devicesCollection),
        deviceDocId(ids.userId, ids.deviceId),
        recorded.position,
        update,
        { upsert: event.type === 'DeviceRegistered' },
      );
    },
  };
}
