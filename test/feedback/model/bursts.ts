/**
 * Writes sent together to one item (README: "Bursts on one item or product do not fail: commands
 * on one stream are decided one after the other and appended together"). Their order is the
 * service's to choose, so the model learns it from the item's history — and then holds every
 * other read (get_item, as-of, the feed, the webhooks) to that one order: each reply and each tag
 * set sent is one revision, in the order the history gives.
 */
import type { AsyncCommand } from 'fast-check';
import { expect } from 'chai';
import { checkItem, expectAnswer } from './checks.js';
import { type Actor, type Model, now, pick, revise, tagSet } from './model.js';
import { api, itemPath, type Real } from './world.js';

export interface BurstWrite {
  actor: Actor;
  kind: 'reply' | 'tags';
}

export class Burst implements AsyncCommand<Model, Real> {
  constructor(
    readonly index: number,
    readonly writes: BurstWrite[],
  ) {}
  check = (model: Readonly<Model>) => model.items.length > 0;
  async run(model: Model, real: Real) {
    const item = pick(model, this.index);
    const path = itemPath(real, item.key);
    const n = item.revisions.length;
    // every write changes the item: a reply always, and each tag set is one no other write sent
    const bodies = this.writes.map((w, i) =>
      w.kind === 'reply' ? { body: `Burst reply ${n}.${i}` } : { tagIds: [`burst-${n}-${i}`] },
    );
    const clock = real.service.fb.clock;
    const t0 = clock.now();
    const answers = await Promise.all(
      this.writes.map((w, i) =>
        api(real, w.actor).post(`${path}/${w.kind === 'reply' ? 'replies' : 'tags'}`, bodies[i]),
      ),
    );
    const t1 = clock.now();
    for (const answer of answers) expectAnswer(answer, 200);
    answers.forEach((answer, i) => {
      const tagIds = bodies[i]!.tagIds;
      if (tagIds) expect(answer.body).to.deep.equal({ tagIds: tagSet(tagIds) });
    });
    const replyIds = answers.flatMap((a, i) =>
      this.writes[i]!.kind === 'reply' ? [a.body.replyId] : [],
    );
    expect(new Set(replyIds).size, 'one reply id each').to.equal(replyIds.length);

    // the order the service chose: the history's new entries, one per write
    const history = await api(real, 'owner').get(`${path}/history?pageSize=200`);
    expectAnswer(history, 200);
    const added = history.body.items.slice(n);
    expect(added, `${item.key}: one change per write of the burst`).to.have.length(bodies.length);
    const unsent = new Set(bodies.flatMap((b) => (b.tagIds ? [b.tagIds[0]!] : [])));
    for (const change of added) {
      if (change.type === 'ItemTagged') {
        const tagIds: string[] = change.changes.tagIds.to;
        expect(unsent.delete(tagIds[0]!), `${tagIds} was sent once`).to.equal(true);
        revise(item, 'item.tagged', { tagIds }, { t0, t1 });
      } else {
        expect(change.type).to.equal('ItemReplied');
        revise(item, 'item.replied', { replyCount: now(item).replyCount + 1 }, { t0, t1 });
      }
    }
    const read = await api(real, 'member').get(path);
    const newReplies = read.body.replies.slice(item.replies.length);
    expect(newReplies.map((r: { id: string }) => r.id)).to.have.members(replyIds);
    for (const reply of newReplies) {
      const i = answers.findIndex((a) => a.body.replyId === reply.id);
      const parentId = null;
      item.replies.push({
        id: reply.id,
        body: bodies[i]!.body!,
        parentId,
        author: this.writes[i]!.actor,
      });
    }
    await checkItem(model, real, item);
  }
  toString = () =>
    `Burst(#${this.index}, ${this.writes.map((w) => `${w.actor}:${w.kind}`).join(' ')})`;
}
