/**
 * Note actions. Each refuses what the deciders would refuse before any side effect (no tag or
 * device is created for a request that is then refused — nor for one whose Idempotency-Key
 * another request holds: note-fields.ts claims the key first), resolves names to ids (creating
 * unknown tags and devices), looks up the place name, and sends one command to the note's
 * stream.
 *
 * `expectedRevision` is the client's If-Match (the note's ETag is its revision); a mismatch
 * throws RevisionMismatch, a Conflict the HTTP layer answers with 412.
 */
import { checkRevision } from '../../../commands/shared/revision.js';
import {
  type NoteCommand,
  type NoteMetadata,
  type NoteState,
  noteDecider,
  noteStreamId,
} from '../../../commands/note/index.js';
import { FailedPrecondition, NotFound } from '../../../commands/shared/errors.js';
import {
  type ActionResult,
  asSent,
  type CommandContext,
  checkId,
  checkUser,
  idFor,
  keyedBy,
  latest,
  type NotesDeps,
  type Precondition,
} from './deps.js';
import { checkFields, type NoteFields, resolve } from './note-fields.js';
import { tagStatus } from './tags.js';

export interface NoteSnapshot {
  id: string;
  title: string;
  content: string;
  /** tag ids */
  tags: string[];
  metadata: NoteMetadata;
  trashed: boolean;
  revision: number;
}

export type NoteResult = ActionResult & { note: NoteSnapshot };

type NoteRef = { userId: string; noteId: string } & Precondition;
type TagOfNote = NoteRef & { tagId: string };

/** POST /v1/notes: content required; tags by name; metadata latitude/longitude/device. */
export async function createNote(
  deps: NotesDeps,
  context: CommandContext,
  input: { userId: string } & NoteFields,
): Promise<NoteResult> {
  const { userId } = input;
  checkUser(userId);
  checkFields(input);
  const noteId = idFor(context, 'note', userId);
  const keyed = keyedBy(context, { type: 'CreateNote', ...input });
  const resolved = (await retried(deps, keyed, { userId, noteId }))
    ? unresolved
    : await resolve(deps, keyed, { userId, noteId }, input);
  const command: NoteCommand = {
    type: 'CreateNote',
    data: {
      noteId,
      userId,
      title: input.title ?? '',
      content: input.content,
      tagIds: resolved.tagIds ?? [],
      metadata: resolved.metadata,
    },
  };
  return send(deps, keyed, { userId, noteId }, command, resolved.position);
}

/**
 * PUT /v1/notes/{id}: title, content and metadata are replaced as a whole (absent title →
 * "", absent metadata → none); `tags`, when sent, replaces the tag set, else it is kept.
 * The replaced version stays in the note's events, which is what history reads.
 */
export async function updateNote(
  deps: NotesDeps,
  context: CommandContext,
  input: NoteRef & NoteFields,
): Promise<NoteResult> {
  checkRef(input);
  checkFields(input);
  const keyed = keyedBy(context, { type: 'UpdateNote', ...asSent(input) });
  const carried = await editable(deps, keyed, input);
  const resolved =
    carried === null ? unresolved : await resolve(deps, keyed, input, input, carried);
  const command: NoteCommand = {
    type: 'UpdateNote',
    data: {
      title: input.title ?? '',
      content: input.content,
      tagIds: resolved.tagIds,
      metadata: resolved.metadata,
      expectedRevision: input.expectedRevision,
    },
  };
  return send(deps, keyed, input, command, resolved.position);
}

/**
 * A retry's names are not resolved again: it is answered from its first attempt's events (the
 * request, not the resolved command, is compared with the first one — keyedBy), and resolving
 * would create anew a tag or device renamed since the first attempt.
 */
const unresolved = {
  tagIds: [],
  metadata: { latitude: null, longitude: null, deviceId: null, placeName: null },
  position: null,
} satisfies Awaited<ReturnType<typeof resolve>>;

async function retried(deps: NotesDeps, context: CommandContext, ref: NoteRef): Promise<boolean> {
  if (!context.idempotencyKey) return false;
  const stream = noteStreamId(ref.userId, ref.noteId);
  return (await deps.commandHandler.load(stream, noteDecider, context)).retry;
}

/** DELETE /v1/notes/{id}: to the trash; trashing a trashed note changes nothing. */
export function trashNote(deps: NotesDeps, context: CommandContext, input: NoteRef) {
  return sendToNote(deps, context, 'TrashNote', input);
}

/** POST /v1/notes/{id}/restore: out of the trash; restoring an active note changes nothing. */
export function restoreNote(deps: NotesDeps, context: CommandContext, input: NoteRef) {
  return sendToNote(deps, context, 'RestoreNote', input);
}

/** POST /v1/notes/{id}/tags/{tagId}: the tag must be one of the user's active tags. */
export function addTagToNote(deps: NotesDeps, context: CommandContext, input: TagOfNote) {
  return sendTagChange(deps, context, 'AddTagToNote', input);
}

/** DELETE /v1/notes/{id}/tags/{tagId}: also removes a tag deleted since it was added. */
export function removeTagFromNote(deps: NotesDeps, context: CommandContext, input: TagOfNote) {
  return sendTagChange(deps, context, 'RemoveTagFromNote', input);
}

function sendToNote(
  deps: NotesDeps,
  context: CommandContext,
  type: 'TrashNote' | 'RestoreNote',
  input: NoteRef,
): Promise<NoteResult> {
  checkRef(input);
  const keyed = keyedBy(context, { type, ...asSent(input) });
  return send(deps, keyed, input, { type, data: { expectedRevision: input.expectedRevision } });
}

/**
 * The tag must be the caller's (another user's tag is looked up as missing). A retry is the same
 * request whatever the tag became since (deleted, say): the request, not the command, is hashed.
 */
async function sendTagChange(
  deps: NotesDeps,
  context: CommandContext,
  type: 'AddTagToNote' | 'RemoveTagFromNote',
  input: TagOfNote,
): Promise<NoteResult> {
  checkRef(input);
  const { tagId, expectedRevision } = input;
  checkId(tagId, 'tag');
  const tag = await tagStatus(deps, input.userId, tagId);
  const keyed = keyedBy(context, { type, ...asSent(input) });
  return send(deps, keyed, input, { type, data: { tagId, tag, expectedRevision } });
}

function snapshot(state: NoteState): NoteSnapshot {
  if (state.status === 'absent') throw new NotFound('note not found');
  const { title, content, tagIds, metadata } = state.version;
  return {
    id: state.noteId,
    title,
    content,
    tags: [...tagIds],
    metadata: { ...metadata },
    trashed: state.status === 'trashed',
    revision: state.revision,
  };
}

async function send(
  deps: NotesDeps,
  context: CommandContext,
  ref: { userId: string; noteId: string },
  command: NoteCommand,
  before: bigint | null = null,
): Promise<NoteResult> {
  const result = await deps.commandHandler.handle(
    noteStreamId(ref.userId, ref.noteId),
    noteDecider,
    command,
    context,
  );
  return {
    note: snapshot(result.state),
    revision: result.revision,
    position: latest(before, result.position),
    replayed: result.replayed,
  };
}

function checkRef(ref: NoteRef): void {
  checkUser(ref.userId);
  checkId(ref.noteId, 'note');
}

/**
 * Refuse early what the decider would refuse, so nothing is created for a doomed request — but
 * not a retry of a write that landed: it is answered with its first result, whatever the note
 * became since (its If-Match named the revision before that write). Null for such a retry, else
 * the ids of the tags the note carries.
 */
async function editable(
  deps: NotesDeps,
  context: CommandContext,
  ref: NoteRef,
): Promise<readonly string[] | null> {
  const { state, retry } = await deps.commandHandler.load(
    noteStreamId(ref.userId, ref.noteId),
    noteDecider,
    context,
  );
  if (state.status === 'absent') throw new NotFound('note not found');
  if (retry) return null;
  checkRevision(ref.expectedRevision, state.revision);
  if (state.status === 'trashed') {
    throw new FailedPrecondition('note is in the trash; restore it before changing it');
  }
  return state.version.tagIds;
}
