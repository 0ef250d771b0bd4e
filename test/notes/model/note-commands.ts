/**
 * The note writes of the model-based test: create, PUT, a tag on or off, trash and restore.
 * Spec: PUT "updates; archives the previous version first; when `tags` is sent it replaces the
 * whole tag set"; DELETE "moves the note to trash; 204"; README / OpenAPI: If-Match refuses a
 * lost update with 412, a trashed note is read-only until restored (409), a write that changes
 * nothing makes no version and no change.
 */
import type { AsyncCommand } from 'fast-check';
import {
  describeNote,
  expectStatus,
  type Json,
  ifMatch,
  type Precondition,
  pick,
  readBack,
  write,
} from './checks.js';
import {
  learnDevice,
  learnTags,
  type ModelNote,
  type NotesModel,
  type Real,
  type Version,
} from './model.js';

type Cmd = AsyncCommand<NotesModel, Real>;

/** What a POST or PUT sends besides content; `device` undefined sends no metadata at all. */
export interface Fields {
  title?: string;
  suffix: string;
  tags?: string[];
  device?: string | null;
  by: number;
  keyed: boolean;
}

function body(model: NotesModel, f: Fields) {
  return {
    ...(f.title !== undefined ? { title: f.title } : {}),
    content: f.suffix ? `${model.word()} ${f.suffix}` : model.word(),
    ...(f.tags ? { tags: f.tags } : {}),
    ...(f.device !== undefined ? { metadata: { device: f.device } } : {}),
  };
}

/** The version a POST or PUT body makes (tags resolved by name, the device by name). */
async function versionOf(
  model: NotesModel,
  real: Real,
  sent: ReturnType<typeof body>,
  answer: Json,
  kept: string[],
): Promise<Version> {
  const api = real.apis[0]!;
  const device = sent.metadata?.device;
  return {
    title: sent.title ?? '',
    content: sent.content,
    tags: sent.tags ? learnTags(model, sent.tags, answer.tags, kept) : kept,
    device: device ? await learnDevice(model, api, device) : null,
  };
}

export class CreateNote implements Cmd {
  constructor(readonly f: Fields) {}
  check = () => true;
  async run(model: NotesModel, real: Real) {
    const sent = body(model, this.f);
    const api = real.apis[this.f.by % real.apis.length]!;
    const res = await write(
      model,
      api,
      { method: 'POST', path: '/v1/notes', body: sent, headers: {} },
      this.f.keyed,
    );
    expectStatus(res, 201, 'POST /v1/notes');
    const version = await versionOf(model, real, sent, res.body, []);
    const note: ModelNote = {
      id: res.body.id,
      ...version,
      trashed: false,
      revision: 0,
      archived: [],
      touched: 0,
    };
    model.notes.push(note);
    model.changed(note, 'created');
    model.expectNote(res.body, note, 'the created note');
    await readBack(model, real, note, this.f.by + 1);
  }
  toString = () => `create(${JSON.stringify(this.f)})`;
}

export class PutNote implements Cmd {
  /** `same`: send the note's own fields back (a PUT that changes nothing) */
  constructor(
    readonly at: number,
    readonly f: Fields,
    readonly pre: Precondition,
    readonly same: boolean,
  ) {}
  check = (m: Readonly<NotesModel>) => m.notes.length > 0;
  async run(model: NotesModel, real: Real) {
    const note = pick(model.notes, this.at);
    const sent = this.same ? own(model, note) : body(model, this.f);
    const api = real.apis[this.f.by % real.apis.length]!;
    const request = {
      method: 'PUT',
      path: `/v1/notes/${note.id}`,
      body: sent,
      headers: ifMatch(note, this.pre),
    };
    const res = await write(model, api, request, this.f.keyed);
    const what = `PUT ${describeNote(note)} ${this.pre}`;
    if (this.pre === 'stale') expectStatus(res, 412, what);
    else if (note.trashed) expectStatus(res, 409, what);
    else {
      expectStatus(res, 200, what);
      model.put(note, await versionOf(model, real, sent, res.body, note.tags));
      model.expectNote(res.body, note, 'the PUT answer');
    }
    await readBack(model, real, note, this.f.by + 1);
  }
  toString = () => `put(#${this.at}, ${this.same ? 'same' : JSON.stringify(this.f)}, ${this.pre})`;
}

function own(model: NotesModel, note: ModelNote) {
  const device = model.deviceName(note.device);
  return {
    title: note.title,
    content: note.content,
    tags: model.tagRefs(note.tags).map((t) => t.name),
    ...(device !== null ? { metadata: { device } } : {}),
  };
}

export class TagNote implements Cmd {
  constructor(
    readonly at: number,
    readonly tagAt: number,
    readonly add: boolean,
    readonly pre: Precondition,
    readonly by: number,
    readonly keyed: boolean,
  ) {}
  check = (m: Readonly<NotesModel>) => m.notes.length > 0 && m.tags.length > 0;
  async run(model: NotesModel, real: Real) {
    const note = pick(model.notes, this.at);
    const tag = pick(model.tags, this.tagAt);
    const api = real.apis[this.by % real.apis.length]!;
    const path = `/v1/notes/${note.id}/tags/${tag.id}`;
    const request = {
      method: this.add ? 'POST' : 'DELETE',
      path,
      headers: ifMatch(note, this.pre),
    };
    const res = await write(model, api, request, this.keyed);
    const what = `${request.method} ${path} (${describeNote(note)}, tag deleted: ${tag.deleted}, ${this.pre})`;
    const has = note.tags.includes(tag.id);
    if (this.pre === 'stale') expectStatus(res, 412, what);
    else if (note.trashed) expectStatus(res, 409, what);
    else if (this.add && tag.deleted && !has) expectStatus(res, 409, what);
    else {
      expectStatus(res, this.add ? 200 : 204, what);
      if (this.add !== has) {
        note.tags = this.add ? [...note.tags, tag.id] : note.tags.filter((id) => id !== tag.id);
        model.changed(note, 'updated');
      }
      if (this.add) model.expectNote(res.body, note, 'the tag add answer');
    }
    await readBack(model, real, note, this.by + 1);
  }
  toString = () =>
    `${this.add ? 'tag' : 'untag'}(#${this.at}, tag #${this.tagAt}, ${this.pre}${this.keyed ? ', keyed' : ''})`;
}

export class TrashOrRestore implements Cmd {
  constructor(
    readonly at: number,
    readonly trash: boolean,
    readonly pre: Precondition,
    readonly by: number,
    readonly keyed: boolean,
  ) {}
  check = (m: Readonly<NotesModel>) => m.notes.length > 0;
  async run(model: NotesModel, real: Real) {
    const note = pick(model.notes, this.at);
    const api = real.apis[this.by % real.apis.length]!;
    const path = this.trash ? `/v1/notes/${note.id}` : `/v1/notes/${note.id}/restore`;
    const request = {
      method: this.trash ? 'DELETE' : 'POST',
      path,
      headers: ifMatch(note, this.pre),
    };
    const res = await write(model, api, request, this.keyed);
    const what = `${request.method} ${path} (${describeNote(note)}, ${this.pre})`;
    if (this.pre === 'stale') expectStatus(res, 412, what);
    else {
      expectStatus(res, this.trash ? 204 : 200, what);
      if (this.trash !== note.trashed) {
        note.trashed = this.trash;
        model.changed(note, this.trash ? 'trashed' : 'restored');
      }
      if (!this.trash) model.expectNote(res.body, note, 'the restore answer');
    }
    await readBack(model, real, note, this.by + 1);
  }
  toString = () =>
    `${this.trash ? 'trash' : 'restore'}(#${this.at}, ${this.pre}${this.keyed ? ', keyed' : ''})`;
}
