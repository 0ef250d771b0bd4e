import { nameText } from '../shared/text.js';

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

/**
 * A device name as stored (NFC, trimmed). A missing, blank, invisible or too long name is refused
 * (nameText); `field` is what the message calls it (a note names its device in `metadata.device`).
 */
export function validDeviceName(name: string | undefined, field = 'name'): string {
  return nameText(normalizeDeviceName(name ?? ''), field, deviceLimits.nameMax);
}

/** A platform as stored (trimmed); a missing, blank or too long one is refused. */
export function validPlatform(platform: string | undefined): string {
  return nameText((platform ?? '').trim(), 'platform', deviceLimits.platformMax);
}
