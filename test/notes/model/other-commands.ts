/**
 * Retries with an Idempotency-Key, and the tag and device writes of the model-based test.
 * README: "a retry with the same `Idempotency-Key` answers the same, also when its `If-Match`
 * named the revision before its first attempt"; "The same Idempotency-Key sent with a different
 * request is refused with 412 before anything is created"; tag and device names are unique per
 * user, case and surrounding space ignored (409).
 */
import { expect } from 'chai';
import type { AsyncCommand } from 'fast-check';
import { expectStatus, pick, readBack } from './checks.js';
import { nameKey, type NotesModel, type Real } from './model.js';

type Cmd = AsyncCommand<NotesModel, Real>;

/** A name the model never draws: a refused retry must not leave a tag of it behind. */
export const STRAY_TAG = 'Stray retry tag';

export class Retry implements Cmd {
  /** `same`: the very request again; else another request under its key */
  constructor(
    readonly at: number,
    readonly same: boolean,
    readonly by: number,
  ) {}
  check = (m: Readonly<NotesModel>) =>
    this.same ? m.keyed.length > 0 : m.keyed.some((k) => k.body !== undefined);
  async run(model: NotesModel, real: Real) {
    const first = pick(
      model.keyed.filter((k) => this.same || k.body),
      this.at,
    );
    const api = real.apis[this.by % real.apis.length]!;
    const sent = this.same
      ? first.body
      : { ...first.body, content: `${first.body.content} again`, tags: [STRAY_TAG] };
    const res = await api(first.method, first.path, sent, first.headers);
    const what = `retry of ${first.method} ${first.path} (${this.same ? 'same' : 'other'} body)`;
    if (!this.same) expectStatus(res, 412, what);
    else {
      expectStatus(res, first.status, what);
      if (first.answer) {
        const fields = ['id', 'revision', 'title', 'content', 'deletedAt'];
        for (const f of fields) expect(res.body[f], `${what}: ${f}`).to.deep.equal(first.answer[f]);
        const ids = (n: { tags: { id: string }[] }) => n.tags.map((t) => t.id);
        expect(ids(res.body), `${what}: tags`).to.deep.equal(ids(first.answer));
      }
    }
    const noteId = first.answer?.id ?? first.path.split('/')[3];
    await readBack(model, real, model.note(noteId), this.by + 1);
  }
  toString = () => `retry(#${this.at}, ${this.same ? 'same' : 'other'})`;
}

export class CreateTag implements Cmd {
  constructor(readonly name: string) {}
  check = () => true;
  async run(model: NotesModel, real: Real) {
    const res = await real.apis[0]!('POST', '/v1/tags', { name: this.name });
    const what = `POST /v1/tags ${JSON.stringify(this.name)}`;
    if (model.liveTag(this.name)) return expectStatus(res, 409, what);
    expectStatus(res, 201, what);
    expect(res.body.name, what).to.equal(this.name.normalize('NFC').trim());
    model.tags.push({ id: res.body.id, name: res.body.name, deleted: false });
  }
  toString = () => `createTag(${JSON.stringify(this.name)})`;
}

export class EditTag implements Cmd {
  /** `name` null: DELETE the tag; else rename it */
  constructor(
    readonly at: number,
    readonly name: string | null,
  ) {}
  check = (m: Readonly<NotesModel>) => m.tags.length > 0;
  async run(model: NotesModel, real: Real) {
    const tag = pick(model.tags, this.at);
    const api = real.apis[1 % real.apis.length]!;
    if (this.name === null) {
      expectStatus(await api('DELETE', `/v1/tags/${tag.id}`), 204, `DELETE tag ${tag.name}`);
      tag.deleted = true;
      return;
    }
    const res = await api('PUT', `/v1/tags/${tag.id}`, { name: this.name });
    const what = `rename tag ${JSON.stringify(tag.name)} (deleted: ${tag.deleted}) to ${JSON.stringify(this.name)}`;
    const holder = model.liveTag(this.name);
    if (tag.deleted || (holder && holder !== tag)) return expectStatus(res, 409, what);
    expectStatus(res, 200, what);
    tag.name = this.name.normalize('NFC').trim();
    expect(res.body.name, what).to.equal(tag.name);
    const shown = model.notes.find((n) => n.tags.includes(tag.id));
    if (shown) await readBack(model, real, shown, 2);
  }
  toString = () =>
    this.name === null
      ? `deleteTag(#${this.at})`
      : `renameTag(#${this.at}, ${JSON.stringify(this.name)})`;
}

export class RenameDevice implements Cmd {
  constructor(
    readonly at: number,
    readonly name: string,
  ) {}
  check = (m: Readonly<NotesModel>) => m.devices.length > 0;
  async run(model: NotesModel, real: Real) {
    const device = pick(model.devices, this.at);
    const res = await real.apis[2 % real.apis.length]!('PUT', `/v1/devices/${device.id}`, {
      name: this.name,
    });
    const what = `rename device ${JSON.stringify(device.name)} to ${JSON.stringify(this.name)}`;
    const holder = model.devices.find((d) => nameKey(d.name) === nameKey(this.name));
    if (holder && holder !== device) return expectStatus(res, 409, what);
    expectStatus(res, 200, what);
    device.name = this.name.normalize('NFC').trim();
    expect(res.body.name, what).to.equal(device.name);
    const shown = model.notes.find((n) => n.device === device.id);
    if (shown) await readBack(model, real, shown, 0);
  }
  toString = () => `renameDevice(#${this.at}, ${JSON.stringify(this.name)})`;
}
