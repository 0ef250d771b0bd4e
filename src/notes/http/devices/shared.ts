/** What the device operations share: the device as answered. */
import { presentDevice } from '../present.js';
import { resourceAnswer } from '../resource.js';
import type { NotesHttpDeps } from '../types.js';

/** The device and its ETag. */
export async function deviceAnswer(deps: NotesHttpDeps, userId: string, deviceId: string) {
  const device = await deps.queries.getDevice(userId, deviceId);
  return resourceAnswer(presentDevice(device), device.revision);
}
