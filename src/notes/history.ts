/**
 * A note's history, read from the note's own events (not a read model): every PUT replaced a
 * version, and the replaced version is what the stream held just before that NoteUpdated.
 * Tag additions/removals, trash and restore change the current version without archiving
 * one — only a PUT archives ("the replaced version is archived first"). Each version says which
 * app made it and which replaced it: the `via` label its events recorded (`oauth:<client_id>`).
 */
import {
  evolveNote,
  initialNoteState,
  type NoteMetadata,
  type NoteState,
  noteStreamId,
  parseNoteEvent,
} from '../../commands/note/index.js';
import type { EventStore } from '../eventstore/types.js';

export interface NoteVersionView {
  title: string;
  content: string;
  tags: string[];
  metadata: NoteMetadata;
  /** when this version was replaced (the PUT's time) */
  archivedAt: number;
  /** the note's revision while this version was current */
  revision: number;
  /** the `via` of the last change this version had (create, PUT, tag change); null when none */
  madeVia: string | null;
  /** the `via` of the PUT that replaced it; null when none */
  replacedVia: string | null;
}

/** Archived versions, newest first; null when the caller has no such note. */
export async function noteHistory(
  events: EventStore,
  userId: string,
  noteId: string,
): Promise<NoteVersionView[] | null> {
  const recorded = await events.readStream(noteStreamId(userId, noteId));
  let state: NoteState = initialNoteState();
  const archived: NoteVersionView[] = [];
  let lastVia: string | null = null;
  for (const r of recorded) {
    const event = parseNoteEvent(r);
    if (!event) continue;
    if (event.type === 'NoteUpdated' && state.status !== 'absent') {
      const { title, content, tagIds, metadata } = state.version;
      archived.push({
        title,
        content,
        tags: [...tagIds],
        metadata: { ...metadata },
        archivedAt: r.metadata.occurredAt,
        revision: state.revision,
        madeVia: lastVia,
        replacedVia: r.metadata.via ?? null,
      });
    }
    state = evolveNote(state, event);
    lastVia = r.metadata.via ?? null;
  }
  if (state.status === 'absent') return null;
  return archived.reverse();
}
