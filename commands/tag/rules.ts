import { InvalidArgument } from '../shared/errors.js';
import type { ParentLookup } from './commands.js';
import type { TagFields } from './events.js';
import { isTagColor, maxTagColor } from './palette.js';

export const tagLimits = { nameMax: 100 } as const;

/** Names are trimmed; comparison for uniqueness ignores case (see nameKey). */
export function normalizeTagName(name: string): string {
  return name.normalize('NFC').trim();
}

/** The key two names collide on: "Work" and " work " are the same tag name. */
export function tagNameKey(name: string): string {
  return normalizeTagName(name).toLowerCase();
}

export function checkTagFields(tagId: string, fields: TagFields, parent: ParentLookup | null) {
  if (fields.name.length === 0) throw new InvalidArgument('name is required');
  if (fields.name.length > tagLimits.nameMax) {
    throw new InvalidArgument(`name must be at most ${tagLimits.nameMax} characters`);
  }
  if (fields.color !== null && !isTagColor(fields.color)) {
    throw new InvalidArgument(`color must be an integer palette index from 0 to ${maxTagColor}`);
  }
  if (fields.parentId === null) return;
  if (fields.parentId === tagId) throw new InvalidArgument('a tag cannot be its own parent');
  // Another user's tag lives in another user's stream, so it looks up as 'none' here.
  if (!parent || parent.status === 'none') throw new InvalidArgument('parent tag not found');
  if (parent.status === 'deleted') throw new InvalidArgument('parent tag is deleted');
  if (parent.ancestorIds.includes(tagId)) {
    throw new InvalidArgument('parentId would make the tag its own ancestor (a cycle)');
  }
}
