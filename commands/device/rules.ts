import { InvalidArgument } from '../shared/errors.js';
import type { DeviceFields } from './events.js';

export const deviceLimits = { nameMax: 100, platformMax: 50 } as const;

/** Platform recorded for a device first named in a note's metadata (the spec sends no platform). */
export const unknownPlatform = 'unknown';

export function normalizeDeviceName(name: string): string {
  return name.normalize('NFC').trim();
}

/** Device names are unique per user, ignoring case and surrounding space. */
export function deviceNameKey(name: string): string {
  return normalizeDeviceName(name).toLowerCase();
}

export function checkDeviceFields(fields: DeviceFields): void {
  if (fields.name.length === 0) throw new InvalidArgument('name is required');
  if (fields.name.length > deviceLimits.nameMax) {
    throw new InvalidArgument(`name must be at most ${deviceLimits.nameMax} characters`);
  }
  if (fields.platform.length === 0) throw new InvalidArgument('platform is required');
  if (fields.platform.length > deviceLimits.platformMax) {
    throw new InvalidArgument(`platform must be at most ${deviceLimits.platformMax} characters`);
  }
}
