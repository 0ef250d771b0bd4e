/**
 * The board model's shared steps: a write as a client sends it (timed on the service's clock,
 * remembered when it carried an Idempotency-Key and was answered 2xx), and get_item held to the
 * model field by field — run right after every write, so read-your-writes is checked each time
 * (README: "A write answers only once its read models include it").
 */
import { expect } from 'chai';
import { type Actor, expectedItem, type Model, type ModelItem, type Who } from './model.js';
import { api, itemPath, type Real } from './world.js';

export interface Sent {
  status: number;
  body: any;
  t0: number;
  t1: number;
}

export async function send(
  model: Model,
  real: Real,
  request: {
    actor: Actor;
    method: 'post' | 'patch';
    path: string;
    body: Record<string, unknown>;
    /** the resource an Idempotency-Key is scoped to; absent: sent without a key */
    keyedOn?: string;
  },
): Promise<Sent> {
  const { actor, method, path, body, keyedOn } = request;
  const key = keyedOn ? `key-${model.keyed.length}` : undefined;
  const clock = real.service.fb.clock;
  const t0 = clock.now();
  const options = key ? { headers: { 'idempotency-key': key } } : undefined;
  const res = await api(real, actor)[method](path, body, options);
  const t1 = clock.now();
  if (key && keyedOn && res.status < 300) {
    model.keyed.push({
      actor,
      key,
      resource: keyedOn,
      method,
      path,
      body,
      status: res.status,
      answer: res.body,
    });
  }
  return { status: res.status, body: res.body, t0, t1 };
}

export function expectAnswer(sent: { status: number; body: any }, status: number): void {
  expect(sent.status, JSON.stringify(sent.body).slice(0, 400)).to.equal(status);
}

/** Spec "Errors": `{error, code}`, both required, no other fields. */
export function expectRefused(sent: { status: number; body: any }, status: number, code: string) {
  expectAnswer(sent, status);
  expect(sent.body).to.have.all.keys('error', 'code');
  expect(sent.body.code).to.equal(code);
}

/** The API's id for a person, learnt on first sight; two people never share one. */
export function learn(model: Model, who: Who, personId: string): void {
  const known = model.personIds.get(who);
  if (known) {
    expect(personId, `person id of ${who}`).to.equal(known);
    return;
  }
  for (const [other, id] of model.personIds) {
    expect(id, `${who} and ${other} are different people`).not.to.equal(personId);
  }
  model.personIds.set(who, personId);
}

export function within(at: number, span: { t0: number; t1: number }, what: string): void {
  expect(at, `${what} between the write's sending and its answer`).to.be.within(span.t0, span.t1);
}

/** get_item against the model: every field, the replies, the participants and the times. */
export async function checkItem(model: Model, real: Real, item: ModelItem): Promise<any> {
  const res = await api(real, 'member').get(itemPath(real, item.key));
  expectAnswer(res, 200);
  const got = res.body.item;
  learn(model, item.submitter, got.createdBy);
  if (!model.authors.has(item.submitter)) model.authors.set(item.submitter, got.author);
  expect(got, item.key).to.deep.equal({
    ...expectedItem(model, item),
    rank: got.rank,
    createdAt: got.createdAt,
    statusChangedAt: got.statusChangedAt,
    updatedAt: got.updatedAt,
  });
  within(got.createdAt, item.revisions[0]!, `${item.key} createdAt`);
  within(got.updatedAt, item.revisions.at(-1)!, `${item.key} updatedAt`);
  const moved = item.revisions.findLast((r) => r.type === 'item.status_changed');
  if (moved) within(got.statusChangedAt, moved, `${item.key} statusChangedAt`);
  else expect(got.statusChangedAt, `${item.key} statusChangedAt`).to.equal(null);

  const { makers } = real.service;
  expect(
    res.body.replies.map((r: any) => [
      r.id,
      r.body,
      r.parentId,
      r.authorKind,
      r.authorId,
      r.itemId,
    ]),
    `${item.key} replies`,
  ).to.deep.equal(
    item.replies.map((r) => [r.id, r.body, r.parentId, 'maker', makers[r.author].userId, item.key]),
  );
  const participants = res.body.participants as { personId: string; role: string }[];
  expect(
    participants.map((p) => p.role),
    `${item.key} participants`,
  ).to.deep.equal(item.participants.map((p) => p.role));
  for (const [i, p] of participants.entries()) learn(model, item.participants[i]!.who, p.personId);
  return res.body;
}
