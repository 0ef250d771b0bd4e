import { checkRevision } from '../note/errors.js';
import { AlreadyExists, FailedPrecondition, NotFound } from '../shared/errors.js';
import type { TagCommand } from './commands.js';
import type { TagEvent, TagFields } from './events.js';
import { checkTagFields, normalizeTagName } from './rules.js';
import type { TagState } from './state.js';

export function decideTag(command: TagCommand, state: TagState): TagEvent[] {
  switch (command.type) {
    case 'CreateTag': {
      if (state.status !== 'none') throw new AlreadyExists('tag already exists');
      const { tagId, userId, color, parentId, parent } = command.data;
      const fields: TagFields = { name: normalizeTagName(command.data.name), color, parentId };
      checkTagFields(tagId, fields, parent);
      return [{ type: 'NoteTagCreated', data: { tagId, userId, ...fields } }];
    }
    case 'UpdateTag': {
      if (state.status === 'none') throw new NotFound('tag not found');
      checkRevision(command.data.expectedRevision, state.revision);
      if (state.status === 'deleted') throw new FailedPrecondition('tag is deleted');
      const { name, color, parentId } = command.data;
      const fields: TagFields = {
        name: name === undefined ? state.fields.name : normalizeTagName(name),
        color: color === undefined ? state.fields.color : color,
        parentId: parentId === undefined ? state.fields.parentId : parentId,
      };
      const parentChanged = fields.parentId !== state.fields.parentId;
      // An unchanged parent was checked when it was set; only a move needs the lookup.
      checkTagFields(
        state.tagId,
        parentChanged ? fields : { ...fields, parentId: null },
        command.data.parent ?? null,
      );
      const same =
        fields.name === state.fields.name && fields.color === state.fields.color && !parentChanged;
      return same ? [] : [{ type: 'NoteTagUpdated', data: fields }];
    }
    case 'DeleteTag': {
      if (state.status === 'none') throw new NotFound('tag not found');
      checkRevision(command.data.expectedRevision, state.revision);
      return state.status === 'deleted' ? [] : [{ type: 'NoteTagDeleted', data: {} }];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}
