/**
 * Note actions. Each validates its input completely before any side effect (no tag or device
 * is created for a request that is then refused), resolves names to ids (creating unknown
 * tags and devices), looks up the place name, and sends one command to the note's stream.
 *
 * `expectedRevision` is the client's If-Match (the note's ETag is its revision); a mismatch
 * throws RevisionMismatch, a Conflict the HTTP layer answers with 412.
 */
import {
  checkRevision,
  type NoteCommand,
  type NoteMetadata,
  type NoteState,
  noteDecider,
  noteStreamId,
} from '../../../commands/note/index.js';
import { FailedPrecondition, NotFound } from '../../../commands/shared/errors.js';
import type { deviceActions } from './devices.js';
import { type NoteInput, noteInput, parseInput } from './input.js';
import {
  type ActionResult,
  type CommandContext,
  checkId,
  checkUser,
  latest,
  newId,
  type NotesActionDeps,
} from './support.js';
import type { tagActions } from './tags.js';

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

type NoteRef = { userId: string; noteId: string; expectedRevision?: number };

function snapshot(state: NoteState): NoteSnapshot {
  if (state.status === 'none') throw new NotFound('note not found');
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

export function noteActions(
  deps: NotesActionDeps,
  tags: ReturnType<typeof tagActions>,
  devices: ReturnType<typeof deviceActions>,
) {
  const { commands, places } = deps;

  async function send(
    userId: string,
    noteId: string,
    command: NoteCommand,
    context: CommandContext,
    before: bigint | null = null,
  ): Promise<NoteResult> {
    const result = await commands.handle(
      noteStreamId(userId, noteId),
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

  /** Tags, device and place of a validated input; creates what does not exist yet. */
  async function resolve(userId: string, input: NoteInput, context: CommandContext) {
    const named = input.tags ? await tags.ensureTags(userId, input.tags, context) : null;
    const meta = input.metadata ?? {};
    const device = meta.device ? await devices.ensureDevice(userId, meta.device, context) : null;
    const latitude = meta.latitude ?? null;
    const longitude = meta.longitude ?? null;
    const metadata: NoteMetadata = {
      latitude,
      longitude,
      deviceId: device?.device.id ?? null,
      placeName:
        latitude !== null && longitude !== null
          ? await places.placeName(latitude, longitude)
          : null,
    };
    return { tagIds: named?.tagIds, metadata, position: latest(named?.position, device?.position) };
  }

  /** Refuse early what the decider would refuse, so nothing is created for a doomed request. */
  async function editable(ref: NoteRef) {
    const { state } = await commands.load(noteStreamId(ref.userId, ref.noteId), noteDecider);
    if (state.status === 'none') throw new NotFound('note not found');
    checkRevision(ref.expectedRevision, state.revision);
    if (state.status === 'trashed') {
      throw new FailedPrecondition('note is in the trash; restore it before changing it');
    }
  }

  function checkRef(ref: NoteRef) {
    checkUser(ref.userId);
    checkId(ref.noteId, 'note');
  }

  return {
    /** POST /v1/notes: content required; tags by name; metadata latitude/longitude/device. */
    async createNote(
      request: { userId: string } & NoteInput,
      context: CommandContext,
    ): Promise<NoteResult> {
      checkUser(request.userId);
      const input = parseInput(noteInput, request);
      const noteId = newId(context, 'note', request.userId);
      const resolved = await resolve(request.userId, input, context);
      const command: NoteCommand = {
        type: 'CreateNote',
        data: {
          noteId,
          userId: request.userId,
          title: input.title ?? '',
          content: input.content,
          tagIds: resolved.tagIds ?? [],
          metadata: resolved.metadata,
        },
      };
      return send(request.userId, noteId, command, context, resolved.position);
    },

    /**
     * PUT /v1/notes/{id}: title, content and metadata are replaced as a whole (absent title →
     * "", absent metadata → none); `tags`, when sent, replaces the tag set, else it is kept.
     * The replaced version stays in the note's events, which is what history reads.
     */
    async updateNote(request: NoteRef & NoteInput, context: CommandContext): Promise<NoteResult> {
      checkRef(request);
      const input = parseInput(noteInput, request);
      await editable(request);
      const resolved = await resolve(request.userId, input, context);
      const command: NoteCommand = {
        type: 'UpdateNote',
        data: {
          title: input.title ?? '',
          content: input.content,
          tagIds: resolved.tagIds,
          metadata: resolved.metadata,
          expectedRevision: request.expectedRevision,
        },
      };
      return send(request.userId, request.noteId, command, context, resolved.position);
    },

    /** DELETE /v1/notes/{id}: to the trash; trashing a trashed note changes nothing. */
    async trashNote(request: NoteRef, context: CommandContext): Promise<NoteResult> {
      checkRef(request);
      const command: NoteCommand = {
        type: 'TrashNote',
        data: { expectedRevision: request.expectedRevision },
      };
      return send(request.userId, request.noteId, command, context);
    },

    /** POST /v1/notes/{id}/restore: out of the trash; restoring an active note changes nothing. */
    async restoreNote(request: NoteRef, context: CommandContext): Promise<NoteResult> {
      checkRef(request);
      const command: NoteCommand = {
        type: 'RestoreNote',
        data: { expectedRevision: request.expectedRevision },
      };
      return send(request.userId, request.noteId, command, context);
    },

    /** POST /v1/notes/{id}/tags/{tagId}: the tag must be one of the user's active tags. */
    async addTagToNote(
      request: NoteRef & { tagId: string },
      context: CommandContext,
    ): Promise<NoteResult> {
      checkRef(request);
      checkId(request.tagId, 'tag');
      const tagExists = await tags.tagExists(request.userId, request.tagId);
      const command: NoteCommand = {
        type: 'AddTagToNote',
        data: { tagId: request.tagId, tagExists, expectedRevision: request.expectedRevision },
      };
      return send(request.userId, request.noteId, command, context);
    },

    /** DELETE /v1/notes/{id}/tags/{tagId}: also removes a tag deleted since it was added. */
    async removeTagFromNote(
      request: NoteRef & { tagId: string },
      context: CommandContext,
    ): Promise<NoteResult> {
      checkRef(request);
      checkId(request.tagId, 'tag');
      const tagExists = await tags.tagExists(request.userId, request.tagId);
      const command: NoteCommand = {
        type: 'RemoveTagFromNote',
        data: { tagId: request.tagId, tagExists, expectedRevision: request.expectedRevision },
      };
      return send(request.userId, request.noteId, command, context);
    },
  };
}
