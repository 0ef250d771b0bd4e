/** Events of the device aggregate (stream `notedevice-<userId>.<deviceId>`). */
import { z } from 'zod';

export const deviceFieldsSchema = z.object({ name: z.string(), platform: z.string() });
export type DeviceFields = z.infer<typeof deviceFieldsSchema>;

export const deviceEventSchemas = {
  DeviceRegistered: deviceFieldsSchema.extend({ deviceId: z.string(), userId: z.string() }),
  /** all fields after the change (rename, platform) */
  DeviceUpdated: deviceFieldsSchema,
} as const;

type Schemas = typeof deviceEventSchemas;
export type DeviceEventType = keyof Schemas;
export type DeviceEvent = {
  [K in DeviceEventType]: { type: K; data: z.infer<Schemas[K]> };
}[DeviceEventType];

export const deviceEventTypes = Object.keys(deviceEventSchemas) as DeviceEventType[];

export function parseDeviceEvent(event: { type: string; data: unknown }): DeviceEvent | null {
  if (!(event.type in deviceEventSchemas)) return null;
  const schema = deviceEventSchemas[event.type as DeviceEventType];
  return { type: event.type, data: schema.parse(event.data) } as DeviceEvent;
}
