/** Queries over the devices read model, always scoped to the caller. */
import { deviceNameKey } from '../../commands/device/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { byName } from '../shared/by-name.js';
import {
  type DeviceDoc,
  type DeviceView,
  deviceDocId,
  devicesCollection,
  publicDevice,
} from './document.js';

export async function listDevices(store: ReadStore, userId: string): Promise<DeviceView[]> {
  const docs = await store
    .collection<DeviceDoc>(devicesCollection)
    .find({ userId }, { sort: { nameKey: 1, id: 1 } });
  return docs.sort(byName).map(publicDevice);
}

/** The ids of the caller's devices (the most one may have: NOTES_DEVICES_PER_USER). */
export async function deviceIds(store: ReadStore, userId: string): Promise<string[]> {
  const docs = await store
    .collection<DeviceDoc>(devicesCollection)
    .find({ userId }, { projection: { id: 1 } });
  return docs.map((doc) => doc.id);
}

export async function getDevice(
  store: ReadStore,
  userId: string,
  deviceId: string,
): Promise<DeviceView | null> {
  const doc = await store
    .collection<DeviceDoc>(devicesCollection)
    .findOne({ _id: deviceDocId(userId, deviceId), userId });
  return doc ? publicDevice(doc) : null;
}

/** Several of the caller's devices by id (the devices of a page of notes); missing ids left out. */
export async function getDevices(
  store: ReadStore,
  userId: string,
  deviceIds: readonly string[],
): Promise<DeviceView[]> {
  if (deviceIds.length === 0) return [];
  const docs = await store
    .collection<DeviceDoc>(devicesCollection)
    .find({ userId, _id: { $in: deviceIds.map((id) => deviceDocId(userId, id)) } });
  return docs.map(publicDevice);
}

/** The caller's device with this name (case and surrounding space ignored), if any. */
export async function findDeviceByName(
  store: ReadStore,
  userId: string,
  name: string,
): Promise<DeviceView | null> {
  const doc = await store
    .collection<DeviceDoc>(devicesCollection)
    .findOne({ userId, nameKey: deviceNameKey(name) });
  return doc ? publicDevice(doc) : null;
}
