/** The devices read model of the notes service: one document per registered device. */
export const devicesCollection = 'note_devices';

export type DeviceDoc = {
  /** `<userId>.<deviceId>` */
  _id: string;
  id: string;
  userId: string;
  name: string;
  /** lower-cased trimmed name, for lookups by name (a device named in a note's metadata) */
  nameKey: string;
  platform: string;
  createdAt: number;
  updatedAt: number;
  revision: number;
};

export function deviceDocId(userId: string, deviceId: string): string {
  return `${userId}.${deviceId}`;
}

export type DeviceView = Omit<DeviceDoc, '_id' | 'nameKey'>;

export function publicDevice(doc: DeviceDoc): DeviceView {
  const { _id, _pos, nameKey, ...rest } = doc as DeviceDoc & { _pos?: string };
  return rest;
}
