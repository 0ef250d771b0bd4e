/**
 * Limits and validity rules of a note version, shared by the decider (which enforces them) and
 * the HTTP schemas (which describe them). The spec names no limits; these keep one note within
 * what a device syncs comfortably.
 */
import { InvalidArgument } from '../shared/errors.js';
import type { NoteVersion } from './events.js';
import { textUpTo } from '../shared/text.js';

export const noteLimits = {
  titleMax: 500,
  contentMax: 100_000,
  tagsMax: 100,
} as const;

export function checkCoordinates(latitude: number | null, longitude: number | null): void {
  if ((latitude === null) !== (longitude === null)) {
    throw new InvalidArgument('latitude and longitude must be given together');
  }
  if (latitude !== null && !(Number.isFinite(latitude) && latitude >= -90 && latitude <= 90)) {
    throw new InvalidArgument('latitude must be between -90 and 90');
  }
  if (
    longitude !== null &&
    !(Number.isFinite(longitude) && longitude >= -180 && longitude <= 180)
  ) {
    throw new InvalidArgument('longitude must be between -180 and 180');
  }
}

export function checkVersion(version: NoteVersion): void {
  checkNoteText(version);
  checkTagCount(version.tagIds.length);
  checkCoordinates(version.metadata.latitude, version.metadata.longitude);
}

/** A missing content (from a caller that bypassed the types) is refused like an empty one. */
export function checkNoteText(text: { title: string; content: string }): void {
  if (!text.content) throw new InvalidArgument('content is required');
  textUpTo(text.content, 'content', noteLimits.contentMax);
  textUpTo(text.title, 'title', noteLimits.titleMax);
}

export function checkTagCount(count: number): void {
  if (count > noteLimits.tagsMax) {
    throw new InvalidArgument(`a note has at most ${noteLimits.tagsMax} tags`);
  }
}

/** Tag ids in first-seen order without duplicates. */
export function uniqueIds(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

export function sameVersion(a: NoteVersion, b: NoteVersion): boolean {
  return (
    a.title === b.title &&
    a.content === b.content &&
    a.tagIds.length === b.tagIds.length &&
    a.tagIds.every((id, i) => id === b.tagIds[i]) &&
    a.metadata.latitude === b.metadata.latitude &&
    a.metadata.longitude === b.metadata.longitude &&
    a.metadata.deviceId === b.metadata.deviceId &&
    a.metadata.placeName === b.metadata.placeName
  );
}
