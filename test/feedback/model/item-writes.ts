/**
 * The board model's item writes, each held to the spec's triage rules: update_item_status (every
 * enum value and values outside it), update_item (partial; a blank title or body refused),
 * tag_item (spec rule 2: "replaces the whole tag set"), reply_to_item (threaded). A refused
 * write changes nothing; an accepted one answers what get_item shows right after.
 */
import type { AsyncCommand } from 'fast-check';
import { expect } from 'chai';
import { checkItem, expectAnswer, expectRefused, send } from './checks.js';
import {
  type Actor,
  type Model,
  now,
  pick,
  revise,
  STATUSES,
  type Status,
  tagSet,
} from './model.js';
import { itemPath, type Real } from './world.js';

type Command = AsyncCommand<Model, Real>;
const hasItems = (model: Readonly<Model>) => model.items.length > 0;
const isStatus = (s: string): s is Status => (STATUSES as readonly string[]).includes(s);
const blank = (s: string) => s.trim() === '';

export class SetStatus implements Command {
  constructor(
    readonly actor: Actor,
    readonly index: number,
    readonly status: string,
    readonly keyed: boolean,
  ) {}
  check = hasItems;
  async run(model: Model, real: Real) {
    const item = pick(model, this.index);
    const sent = await send(model, real, {
      actor: this.actor,
      method: 'post',
      path: `${itemPath(real, item.key)}/status`,
      body: { status: this.status },
      ...(this.keyed ? { keyedOn: item.key } : {}),
    });
    if (!isStatus(this.status)) {
      expectRefused(sent, 400, 'invalid-argument');
    } else {
      // spec: "when the item already has that status, `changed` is false"
      const changed = now(item).status !== this.status;
      expectAnswer(sent, 200);
      expect(sent.body).to.deep.equal({ status: this.status, changed });
      if (changed) revise(item, 'item.status_changed', { status: this.status }, sent);
    }
    await checkItem(model, real, item);
  }
  toString = () => `SetStatus(${this.actor}, #${this.index}, ${this.status}, keyed=${this.keyed})`;
}

export interface Patch {
  title?: string;
  body?: string;
  status?: string;
  /** a field update_item does not take ("no other fields allowed") */
  rank?: string;
}

export class UpdateItem implements Command {
  constructor(
    readonly actor: Actor,
    readonly index: number,
    readonly patch: Patch,
    readonly keyed: boolean,
  ) {}
  check = hasItems;
  async run(model: Model, real: Real) {
    const item = pick(model, this.index);
    const { title, body, status, rank } = this.patch;
    const sent = await send(model, real, {
      actor: this.actor,
      method: 'patch',
      path: itemPath(real, item.key),
      body: { ...this.patch },
      ...(this.keyed ? { keyedOn: item.key } : {}),
    });
    const refused =
      (title !== undefined && (blank(title) || /\p{Cc}/u.test(title))) ||
      (body !== undefined && blank(body)) ||
      (status !== undefined && !isStatus(status)) ||
      rank !== undefined;
    if (refused) {
      expectRefused(sent, 400, 'invalid-argument');
      await checkItem(model, real, item);
      return;
    }
    expectAnswer(sent, 200);
    const before = now(item);
    const edit: { title?: string; body?: string } = {};
    if (title !== undefined && title.trim() !== before.title) edit.title = title.trim();
    if (body !== undefined && body !== before.body) edit.body = body;
    if (Object.keys(edit).length > 0) revise(item, 'item.updated', edit, sent);
    if (status !== undefined && isStatus(status) && status !== before.status) {
      revise(item, 'item.status_changed', { status }, sent);
    }
    const read = await checkItem(model, real, item);
    // spec: update_item answers `{item: Item}`, the item as the edit left it
    expect(sent.body).to.deep.equal({ item: read.item });
  }
  toString = () =>
    `UpdateItem(${this.actor}, #${this.index}, ${JSON.stringify(this.patch)}, keyed=${this.keyed})`;
}

export class TagItem implements Command {
  constructor(
    readonly actor: Actor,
    readonly index: number,
    readonly tags: string[],
    readonly keyed: boolean,
  ) {}
  check = hasItems;
  async run(model: Model, real: Real) {
    const item = pick(model, this.index);
    const sent = await send(model, real, {
      actor: this.actor,
      method: 'post',
      path: `${itemPath(real, item.key)}/tags`,
      body: { tagIds: this.tags },
      ...(this.keyed ? { keyedOn: item.key } : {}),
    });
    if (this.tags.length > 20 || this.tags.some(blank)) {
      expectRefused(sent, 400, 'invalid-argument');
    } else {
      const tagIds = tagSet(this.tags);
      expectAnswer(sent, 200);
      expect(sent.body).to.deep.equal({ tagIds });
      const same = JSON.stringify(tagIds) === JSON.stringify(now(item).tagIds);
      if (!same) revise(item, 'item.tagged', { tagIds }, sent);
    }
    await checkItem(model, real, item);
  }
  toString = () =>
    `TagItem(${this.actor}, #${this.index}, ${JSON.stringify(this.tags)}, keyed=${this.keyed})`;
}

/** `parent`: null = top level, a number = that reply of the item, 'bogus' = no reply of it */
export class Reply implements Command {
  constructor(
    readonly actor: Actor,
    readonly index: number,
    readonly body: string,
    readonly parent: number | null | 'bogus',
    readonly keyed: boolean,
  ) {}
  check = hasItems;
  async run(model: Model, real: Real) {
    const item = pick(model, this.index);
    const { parent } = this;
    const parentId =
      parent === 'bogus'
        ? 'r_not_on_this_item'
        : parent === null || item.replies.length === 0
          ? null
          : item.replies[parent % item.replies.length]!.id;
    const sent = await send(model, real, {
      actor: this.actor,
      method: 'post',
      path: `${itemPath(real, item.key)}/replies`,
      body: { body: this.body, parentId },
      ...(this.keyed ? { keyedOn: item.key } : {}),
    });
    if (blank(this.body) || parent === 'bogus') {
      expectRefused(sent, 400, 'invalid-argument');
    } else {
      expectAnswer(sent, 200);
      expect(sent.body).to.have.all.keys('replyId');
      const replyId: string = sent.body.replyId;
      expect(item.replies.map((r) => r.id)).not.to.include(replyId);
      item.replies.push({ id: replyId, body: this.body, parentId, author: this.actor });
      revise(item, 'item.replied', { replyCount: now(item).replyCount + 1 }, sent);
    }
    await checkItem(model, real, item);
  }
  toString = () =>
    `Reply(${this.actor}, #${this.index}, ${JSON.stringify(this.body)}, parent=${this.parent}, keyed=${this.keyed})`;
}
