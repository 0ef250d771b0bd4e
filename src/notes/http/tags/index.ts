/** The tag operations (spec "Tags"): list, create, read, update and soft delete. */
import type { NotesHttpDeps, NotesOperation } from '../types.js';
import { createTagOperation } from './create-tag.js';
import { getTagOperation, listTagsOperation } from './read-tags.js';
import { tagEditOperations } from './tag-edits.js';

export function tagOperations(deps: NotesHttpDeps): NotesOperation[] {
  return [
    listTagsOperation(deps),
    createTagOperation(deps),
    getTagOperation(deps),
    ...tagEditOperations(deps),
  ];
}
