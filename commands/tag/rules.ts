import { InvalidArgument } from '../shared/errors.js';
import { nameText } from '../shared/text.js';
import type { TagFields } from './events.js';
import type { TagState } from './state.js';
import { isTagColor, maxTagColor } from './palette.js';

/** What the action found for a parentId: the parent tag's status and its ancestors. */
export interface ParentLookup {
  status: TagState['status'];
  /** ids from the parent's own parent up to the root */
  ancestorIds: string[];
}

export const tagLimits = { nameMax: 100 } as const;

/** Names are trimmed; comparison for uniqueness ignores case (see tagNameKey). */
export function normalizeTagName(name: string): string {
  return name.normalize('NFC').trim();
}

/** The key two names collide on: "Work" and " work " are the same tag name. */
export function tagNameKey(name: string): string {
  return normalizeTagName(name).toLowerCase();
}

/**
 * A tag name as stored (NFC, trimmed). A missing, blank, invisible or too long name is refused
 * (nameText); `field` is what the message calls it (a note names its tags in `tags`).
 */
export function validTagName(name: string | undefined, field = 'name'): string {
  return nameText(normalizeTagName(name ?? ''), field, tagLimits.nameMax);
}

/** The colour and the parent of a tag's fields (the name was checked by validTagName). */
export function checkTagFields(tagId: string, fields: TagFields, parent: ParentLookup | null) {
  if (fields.color !== null && !isTagColor(fields.color)) {
    throw new InvalidArgument(`color must be an integer palette index from 0 to ${maxTagColor}`);
  }
  if (fields.parentId === null) return;
  if (fields.parentId === tagId) throw new InvalidArgument('a tag cannot be its own parent');
  // Another user's tag lives in another user's stream, so it looks up as 'absent' here.
  if (!parent || parent.status === 'absent') throw new InvalidArgument('parent tag not found');
  if (parent.status === 'deleted') throw new InvalidArgument('parent tag is deleted');
  if (parent.ancestorIds.includes(tagId)) {
    throw new InvalidArgument('parentId would make the tag its own ancestor (a cycle)');
  }
}
