/**
 * The reference the model-based test compares the notes API with: one account's notes, tags and
 * devices as the spec and README describe them, kept in memory. Every write that changes a note
 * is one event: revision + 1, one sync change, a new place at the front of the list; a write that
 * changes nothing is none of these. Only a PUT archives a version ("the replaced version is
 * archived first").
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { Routed } from '../../support/model-runs.js';
import type { Api, Json } from '../e2e/support.js';

/**
 * The system under test: one token per device of the account (clients[i] uses apis[i]), and
 * in split mode the route of its requests.
 */
export interface Real extends Routed {
  apis: Api[];
}

export interface Version {
  title: string;
  content: string;
  /** tag ids, in the note's order */
  tags: string[];
  /** device id */
  device: string | null;
}

export interface ModelNote extends Version {
  id: string;
  trashed: boolean;
  revision: number;
  /** archived versions, oldest first, with the revision each had */
  archived: (Version & { revision: number })[];
  /** when it last changed, in model steps: the list is newest first */
  touched: number;
}

export interface Named {
  id: string;
  name: string;
  deleted: boolean;
}

export type ChangeKind = 'created' | 'updated' | 'trashed' | 'restored';

/** One of the account's devices: it signs in with its own token and follows the sync feed. */
export interface Client {
  deviceId: string;
  /** how many changes of the feed it has seen */
  seen: number;
  cursor?: string;
}

/** A keyed write that succeeded: what was sent and what the first attempt answered. */
export interface KeyedWrite {
  method: string;
  path: string;
  body?: Json;
  headers: Record<string, string>;
  status: number;
  answer: Json;
}

export const nameKey = (name: string) => name.normalize('NFC').trim().toLowerCase();

export class NotesModel {
  notes: ModelNote[] = [];
  tags: Named[] = [];
  devices: Named[] = [];
  feed: { noteId: string; change: ChangeKind; revision: number }[] = [];
  keyed: KeyedWrite[] = [];
  clients: Client[] = [];
  private steps = 0;
  private words = 0;
  private keys = 0;

  constructor(readonly run: string) {}

  /** A word no other text of the account holds (ten letters: typo tolerance is two edits). */
  word(): string {
    const digest = createHash('sha256')
      .update(`${this.run}:${this.words++}`)
      .digest();
    return [...digest.subarray(0, 10)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
  }

  key(): string {
    return `${this.run}-k${this.keys++}`;
  }

  liveTag(name: string): Named | undefined {
    return this.tags.find((t) => !t.deleted && nameKey(t.name) === nameKey(name));
  }

  device(name: string): Named | undefined {
    return this.devices.find((d) => nameKey(d.name) === nameKey(name));
  }

  /** The note changed: one event on its stream, one change in the feed. */
  changed(note: ModelNote, change: ChangeKind): void {
    if (change !== 'created') note.revision += 1;
    note.touched = ++this.steps;
    this.feed.push({ noteId: note.id, change, revision: note.revision });
  }

  /** The listing's order: most recently updated first. */
  listed(includeDeleted: boolean): ModelNote[] {
    return this.notes
      .filter((n) => includeDeleted || !n.trashed)
      .sort((a, b) => b.touched - a.touched);
  }

  note(id: string): ModelNote {
    const note = this.notes.find((n) => n.id === id);
    if (!note) throw new Error(`model has no note ${id}`);
    return note;
  }

  tagRefs(ids: readonly string[]) {
    return ids.map((id) => {
      const tag = this.tags.find((t) => t.id === id);
      if (!tag) throw new Error(`model has no tag ${id}`);
      return { id, name: tag.name };
    });
  }

  deviceName(id: string | null): string | null {
    return id === null ? null : (this.devices.find((d) => d.id === id)?.name ?? null);
  }

  /** Every field the model knows of a note (or an archived version) against an answer. */
  expectVersion(actual: Json, version: Version, what: string): void {
    expect(actual.title, `${what} title`).to.equal(version.title);
    expect(actual.content, `${what} content`).to.equal(version.content);
    const tags = actual.tags.map((t: Json) => ({ id: t.id, name: t.name }));
    expect(tags, `${what} tags`).to.deep.equal(this.tagRefs(version.tags));
    expect(actual.metadata.device, `${what} device`).to.equal(this.deviceName(version.device));
  }

  expectNote(actual: Json, note: ModelNote, what = `note ${note.id}`): void {
    expect(actual.id, `${what} id`).to.equal(note.id);
    expect(actual.revision, `${what} revision`).to.equal(note.revision);
    expect(actual.deletedAt !== null, `${what} in the trash`).to.equal(note.trashed);
    this.expectVersion(actual, note, what);
  }

  /** Apply a version to a note, as the server decides: no event when nothing changed. */
  put(note: ModelNote, next: Version): boolean {
    const same =
      next.title === note.title &&
      next.content === note.content &&
      next.device === note.device &&
      next.tags.join() === note.tags.join();
    if (same) return false;
    const { title, content, tags, device, revision } = note;
    note.archived.push({ title, content, tags: [...tags], device, revision });
    Object.assign(note, next);
    this.changed(note, 'updated');
    return true;
  }
}

/**
 * The tag ids a note's tag names resolve to, in order and without duplicates: a deleted tag of
 * that name the note carries (`carried`, a PUT), else a live tag of that name (case and
 * surrounding space ignored), else a new tag, learnt from the answer.
 */
export function learnTags(
  model: NotesModel,
  names: readonly string[],
  answered: Json[],
  carried: readonly string[] = [],
): string[] {
  const wanted = new Map<string, Named | undefined>();
  const deletedOnNote = (name: string) =>
    model.tags.find(
      (t) => t.deleted && carried.includes(t.id) && nameKey(t.name) === nameKey(name),
    );
  for (const name of names) {
    if (!wanted.has(nameKey(name))) {
      wanted.set(nameKey(name), deletedOnNote(name) ?? model.liveTag(name));
    }
  }
  expect(answered.length, 'tags on the note').to.equal(wanted.size);
  return [...wanted.entries()].map(([key, live], i) => {
    const made = answered[i]!;
    if (live) {
      expect(made.id, `tag ${key}`).to.equal(live.id);
      return live.id;
    }
    expect(nameKey(made.name), `new tag ${key}`).to.equal(key);
    expect(
      model.tags.map((t) => t.id),
      'a new tag',
    ).not.to.include(made.id);
    model.tags.push({ id: made.id, name: made.name, deleted: false });
    return made.id as string;
  });
}

/** The device a note's device name resolves to; a new one (platform "unknown") is learnt. */
export async function learnDevice(model: NotesModel, api: Api, name: string): Promise<string> {
  const known = model.device(name);
  if (known) return known.id;
  const devices = (await api('GET', '/v1/devices')).body.devices as Json[];
  const made = devices.find((d) => nameKey(d.name) === nameKey(name));
  expect(made, `device ${name} registered by the note`).to.include({ platform: 'unknown' });
  model.devices.push({ id: made.id, name: made.name, deleted: false });
  return made.id;
}
