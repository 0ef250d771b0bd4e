import { checkRevision } from '../shared/revision.js';
import { AlreadyExists, FailedPrecondition, NotFound } from '../shared/errors.js';
import type { TagEvent, TagFields } from './events.js';
import { checkTagFields, type ParentLookup, validTagName } from './rules.js';
import type { TagState } from './state.js';

/**
 * Commands of the tag aggregate. The parent rules (exists, belongs to the user, not deleted,
 * no cycle) need other tags' state, so the action looks the parent up and passes the result:
 * its status and its ancestor chain (parent's parent first, up to the root).
 */
export type CreateTag = {
  type: 'CreateTag';
  data: {
    tagId: string;
    userId: string;
    name: string;
    color: number | null;
    parentId: string | null;
    /** required when parentId is set */
    parent: ParentLookup | null;
  };
};

/** Absent fields keep their value; null clears color / moves the tag to the root. */
export type UpdateTag = {
  type: 'UpdateTag';
  data: {
    name?: string;
    color?: number | null;
    parentId?: string | null;
    /** lookup of the new parentId, required when parentId is set */
    parent?: ParentLookup | null;
    expectedRevision?: number;
  };
};

export type DeleteTag = { type: 'DeleteTag'; data: { expectedRevision?: number } };

export type TagCommand = CreateTag | UpdateTag | DeleteTag;

export function decideTag(command: TagCommand, state: TagState): TagEvent[] {
  switch (command.type) {
    case 'CreateTag': {
      if (state.status !== 'absent') throw new AlreadyExists('tag already exists');
      const { tagId, userId, color, parentId, parent } = command.data;
      const fields: TagFields = { name: validTagName(command.data.name), color, parentId };
      checkTagFields(tagId, fields, parent);
      return [{ type: 'NoteTagCreated', data: { tagId, userId, ...fields } }];
    }
    case 'UpdateTag': {
      if (state.status === 'absent') throw new NotFound('tag not found');
      checkRevision(command.data.expectedRevision, state.revision);
      if (state.status === 'deleted') throw new FailedPrecondition('tag is deleted');
      const { name, color, parentId } = command.data;
      const fields: TagFields = {
        name: name === undefined ? state.fields.name : validTagName(name),
        color: color === undefined ? state.fields.color : color,
        parentId: parentId === undefined ? state.fields.parentId : parentId,
      };
      const parentChanged = fields.parentId !== state.fields.parentId;
      // An unchanged parent was checked when it was set; only a move needs the lookup — and a
      // parent sent again, looked up, which may have been deleted since.
      const parentSent = parentChanged || (parentId != null && command.data.parent != null);
      checkTagFields(
        state.tagId,
        parentSent ? fields : { ...fields, parentId: null },
        command.data.parent ?? null,
      );
      const same =
        fields.name === state.fields.name && fields.color === state.fields.color && !parentChanged;
      return same ? [] : [{ type: 'NoteTagUpdated', data: fields }];
    }
    case 'DeleteTag': {
      if (state.status === 'absent') throw new NotFound('tag not found');
      checkRevision(command.data.expectedRevision, state.revision);
      return state.status === 'deleted' ? [] : [{ type: 'NoteTagDeleted', data: {} }];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}
