/** What the device operations share: the device as answered. */
import { presentDevice } from '../present.js';
import { answerAt } from '../resource.js';
import type { NotesHttpDeps } from '../types.js';

/** The device and its ETag; a write's answer at its `revision`. */
export async function deviceAnswer(
  deps: NotesHttpDeps,
  userId: string,
  deviceId: string,
  revision?: number,
) {
  return answerAt(
    await deps.queries.getDevice(userId, deviceId),
    revision,
    (at) => deps.queries.deviceAt(userId, deviceId, at),
    presentDevice,
  );
}
