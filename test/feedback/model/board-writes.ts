/**
 * The board model's other writes: submit_feedback (items are written only by the people who
 * file them; a member may file for a customer by address; the same body from the same person on
 * one product within 10 minutes is the first item), a board visitor's +1 toggle, time passing,
 * retries with an Idempotency-Key (README: "a retried command with the same key returns the first
 * result without appending again"; "the same key with another request is refused"), and a maker
 * of another workspace, who gets 404 for everything (spec: "existence is never revealed").
 */
import type { AsyncCommand } from 'fast-check';
import { expect } from 'chai';
import { checkItem, expectAnswer, expectRefused, send } from './checks.js';
import {
  CUSTOMERS,
  derivedTitle,
  FOLD_WINDOW_MS,
  type Actor,
  type Model,
  type ModelItem,
  now,
  pick,
  type ProductKey,
  revise,
  STATUSES,
} from './model.js';
import { api, itemPath, type Real } from './world.js';

type Command = AsyncCommand<Model, Real>;
const itemOf = (model: Model, key: string): ModelItem => model.items.find((i) => i.key === key)!;

export class Submit implements Command {
  constructor(
    readonly actor: Actor,
    readonly product: ProductKey,
    readonly customer: keyof typeof CUSTOMERS | null,
    readonly body: string,
    readonly title: string | undefined,
    readonly keyed: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const submitter = this.customer ?? this.actor;
    const sent = await send(model, real, {
      actor: this.actor,
      method: 'post',
      path: `/v1/public/${real.slug}/${this.product}/feedback`,
      body: {
        body: this.body,
        ...(this.title !== undefined ? { title: this.title } : {}),
        ...(this.customer ? { email: CUSTOMERS[this.customer] } : {}),
      },
      ...(this.keyed ? { keyedOn: `product:${this.product}` } : {}),
    });
    expectAnswer(sent, 200);
    const foldKey = `${this.product}\0${submitter}\0${this.body}`;
    const fold = model.folds.get(foldKey);
    if (fold && sent.t0 - fold.at < FOLD_WINDOW_MS) {
      const item = itemOf(model, fold.itemKey);
      expect(sent.body, 'a folded submission answers the first item').to.deep.equal({
        itemId: item.key,
        title: now(item).title,
        status: now(item).status,
      });
      await checkItem(model, real, item);
      return;
    }
    const number = model.next[this.product]++;
    const key = `${this.product}-${number}`;
    const title = this.title?.trim() ? this.title.trim() : derivedTitle(this.body);
    expect(sent.body).to.deep.equal({ itemId: key, title, status: 'new' });
    const item: ModelItem = {
      key,
      product: this.product,
      number,
      submitter,
      via: `pat:${real.service.makers[this.actor].tokenName}`,
      replies: [],
      plusOnes: [],
      participants: [{ who: submitter, role: 'submitted' }],
      revisions: [],
    };
    const snap = { status: 'new' as const, title, body: this.body, tagIds: [] };
    item.revisions.push({
      type: 'item.created',
      snap: { ...snap, plusOneCount: 0, replyCount: 0 },
      t0: sent.t0,
      t1: sent.t1,
    });
    model.items.push(item);
    model.folds.set(foldKey, { itemKey: key, at: sent.t1 });
    await checkItem(model, real, item);
  }
  toString = () =>
    `Submit(${this.actor}, ${this.product}, for=${this.customer}, ${JSON.stringify(this.body)}, title=${JSON.stringify(this.title)}, keyed=${this.keyed})`;
}

/** A board visitor presses +1 on an item: one per person per item, a toggle (issue 12). */
export class PlusOne implements Command {
  constructor(
    readonly visitor: 0 | 1,
    readonly index: number,
  ) {}
  check = (model: Readonly<Model>) => model.items.length > 0;
  async run(model: Model, real: Real) {
    const item = pick(model, this.index);
    const who = `v${this.visitor}` as const;
    const visitor = real.visitors[this.visitor]!;
    const clock = real.service.fb.clock;
    const t0 = clock.now();
    const path = `/${real.slug}/${item.product}/items/${item.key}/plus-one`;
    // an absolute URL: in split mode the +1 goes to either API process
    const url = `${real.service.fb.url(real.route)}${path}`;
    const page = await visitor.browser.post(url, { csrf: visitor.csrf }, { json: true });
    const t1 = clock.now();
    expect(page.status, page.text.slice(0, 300)).to.equal(200);
    const answer = JSON.parse(page.text);
    visitor.csrf = answer.csrf;
    const given = !item.plusOnes.includes(who);
    if (given) {
      item.plusOnes.push(who);
      item.participants.push({ who, role: 'plus-one' });
    } else {
      item.plusOnes = item.plusOnes.filter((p) => p !== who);
      item.participants = item.participants.filter((p) => p.who !== who);
    }
    revise(item, 'item.updated', { plusOneCount: item.plusOnes.length }, { t0, t1 });
    expect(answer).to.deep.include({
      itemId: item.key,
      plusOneCount: item.plusOnes.length,
      plusOned: given,
    });
    await checkItem(model, real, item);
  }
  toString = () => `PlusOne(v${this.visitor}, #${this.index})`;
}

/** Eleven minutes pass: the same body is a new item again (in-process only: split keeps real time). */
export class TimePasses implements Command {
  check = () => true;
  async run(_model: Model, real: Real) {
    real.service.fb.clock.advance!(11 * 60 * 1000);
  }
  toString = () => 'TimePasses(11 min)';
}

/** The item a keyed write touched: the one in its path, or the one its submission answered. */
function touched(model: Model, keyed: Model['keyed'][number]): ModelItem {
  const answer = keyed.answer as { itemId?: string };
  const key = answer.itemId ?? keyed.path.split('/')[7]!;
  return itemOf(model, key);
}

export class RetryKeyed implements Command {
  constructor(readonly index: number) {}
  check = (model: Readonly<Model>) => model.keyed.length > 0;
  async run(model: Model, real: Real) {
    const first = model.keyed[this.index % model.keyed.length]!;
    const options = { headers: { 'idempotency-key': first.key } };
    const res = await api(real, first.actor)[first.method](first.path, first.body, options);
    expect(res.status, JSON.stringify(res.body)).to.equal(first.status);
    expect(res.body, `retry of ${first.method} ${first.path}`).to.deep.equal(first.answer);
    await checkItem(model, real, touched(model, first));
  }
  toString = () => `RetryKeyed(#${this.index})`;
}

/** The same key, by the same maker on the same resource, with another request: 409. */
export class ReuseKey implements Command {
  constructor(
    readonly index: number,
    readonly variant: 'status' | 'reply' | 'tags',
  ) {}
  check = (model: Readonly<Model>) => model.keyed.length > 0;
  async run(model: Model, real: Real) {
    const first = model.keyed[this.index % model.keyed.length]!;
    const n = model.keyed.length;
    const onItem = !first.resource.startsWith('product:');
    const item = touched(model, first);
    const other = STATUSES.find((s) => s !== first.body.status && s !== now(item).status)!;
    const [path, body] = !onItem
      ? [first.path, { body: `Another submission under a used key ${n}` }]
      : this.variant === 'status'
        ? [`${itemPath(real, item.key)}/status`, { status: other }]
        : this.variant === 'reply'
          ? [`${itemPath(real, item.key)}/replies`, { body: `Another reply under a used key ${n}` }]
          : [`${itemPath(real, item.key)}/tags`, { tagIds: [`reused-${n}`] }];
    const options = { headers: { 'idempotency-key': first.key } };
    const res = await api(real, first.actor).post(path, body, options);
    expectRefused(res, 409, 'failed-precondition');
    await checkItem(model, real, item);
  }
  toString = () => `ReuseKey(#${this.index}, ${this.variant})`;
}

/** A maker of another workspace reads and writes an item by its address: 404, nothing changes. */
export class Outsider implements Command {
  constructor(readonly index: number) {}
  check = (model: Readonly<Model>) => model.items.length > 0;
  async run(model: Model, real: Real) {
    const item = pick(model, this.index);
    const path = itemPath(real, item.key);
    const outsider = api(real, 'outsider');
    expectRefused(await outsider.get(path), 404, 'not-found');
    expectRefused(await outsider.post(`${path}/status`, { status: 'declined' }), 404, 'not-found');
    expectRefused(await outsider.post(`${path}/replies`, { body: 'Hi' }), 404, 'not-found');
    await checkItem(model, real, item);
  }
  toString = () => `Outsider(#${this.index})`;
}
