/**
 * The board model's reads: list_items (filters and paging, the listed set and its order),
 * list_products' counts, and an auditor replaying an item — get_item_history folded change by
 * change must give every revision and, at the end, get_item's item; get_item_as_of at each
 * revision (by number and by moment) must give that revision.
 */
import type { AsyncCommand } from 'fast-check';
import { expect } from 'chai';
import { checkItem, expectAnswer, expectRefused, within } from './checks.js';
import {
  type ListFilters,
  listed,
  type Model,
  type MessageType,
  now,
  pick,
  PRODUCTS,
  type ProductKey,
  snapOf,
} from './model.js';
import type { ApiResponse } from '../support/harness.js';
import { api, itemPath, type Real } from './world.js';

type Command = AsyncCommand<Model, Real>;

export class ListItems implements Command {
  constructor(
    readonly product: ProductKey,
    readonly filters: ListFilters,
    readonly pageSize: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const { status, tag, personOf } = this.filters;
    const personId = personOf ? model.personIds.get(personOf) : undefined;
    if (personOf && !personId) return; // nobody has seen that person's id yet
    const query = new URLSearchParams({ pageSize: String(this.pageSize) });
    if (status) query.set('status', status);
    if (tag) query.set('tag', tag);
    if (personId) query.set('personId', personId);
    const base = `/v1/workspaces/${real.slug}/products/${this.product}/items?${query}`;
    const seen: any[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 1000; page++) {
      const res: ApiResponse = await api(real, 'owner').get(
        `${base}${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expectAnswer(res, 200);
      expect(res.body.items.length).to.be.at.most(this.pageSize);
      seen.push(...res.body.items);
      cursor = res.body.nextCursor;
      if (!cursor) break;
    }
    expect(
      seen.map((i) => i.id),
      `list_items ${query}`,
    ).to.deep.equal(listed(model, this.product, this.filters));
    for (const got of seen) {
      expect(snapOf(got), got.id).to.deep.equal(now(model.items.find((i) => i.key === got.id)!));
    }
  }
  toString = () => `ListItems(${this.product}, ${JSON.stringify(this.filters)}, ${this.pageSize})`;
}

export class ListProducts implements Command {
  check = () => true;
  async run(model: Model, real: Real) {
    const res = await api(real, 'member').get(`/v1/workspaces/${real.slug}/products`);
    expectAnswer(res, 200);
    expect(res.body.nextCursor).to.equal(null);
    const counts = res.body.items.map((p: any) => [p.id, p.itemCount, p.nextItemNumber]);
    expect(counts).to.deep.equal(
      PRODUCTS.map((key) => [key, model.next[key] - 1, model.next[key]]),
    );
  }
  toString = () => 'ListProducts';
}

/** Which event types may stand behind a message type (history names events). */
const EVENT_TYPES: Record<MessageType, string[]> = {
  'item.created': ['ItemCaptured'],
  'item.status_changed': ['ItemStatusChanged'],
  'item.replied': ['ItemReplied'],
  'item.updated': ['ItemEdited', 'PlusOneAdded', 'PlusOneWithdrawn'],
  'item.tagged': ['ItemTagged'],
};

export class ReplayItem implements Command {
  constructor(
    readonly index: number,
    readonly pageSize: number,
    readonly revision: number,
  ) {}
  check = (model: Readonly<Model>) => model.items.length > 0;
  async run(model: Model, real: Real) {
    const item = pick(model, this.index);
    const path = itemPath(real, item.key);
    const owner = api(real, 'owner');
    const changes: any[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 1000; page++) {
      const query: string = `pageSize=${this.pageSize}${cursor ? `&cursor=${cursor}` : ''}`;
      const res: ApiResponse = await owner.get(`${path}/history?${query}`);
      expectAnswer(res, 200);
      changes.push(...res.body.items);
      cursor = res.body.nextCursor;
      if (!cursor) break;
    }
    const revisions = item.revisions;
    expect(
      changes.map((c) => c.revision),
      `${item.key} history`,
    ).to.deep.equal(revisions.map((_, i) => i));
    // the auditor's fold: each change starts where the one before ended
    let folded: Record<string, unknown> = {};
    changes.forEach((change, i) => {
      const revision = revisions[i]!;
      expect(EVENT_TYPES[revision.type], `${item.key}@${i}`).to.include(change.type);
      within(change.occurredAt, revision, `${item.key}@${i} occurredAt`);
      for (const [field, { from, to }] of Object.entries<any>(change.changes)) {
        expect(from, `${item.key}@${i} ${field}.from`).to.deep.equal(folded[field] ?? null);
        folded = { ...folded, [field]: to };
      }
      expect(snapOf(folded), `${item.key}@${i} folded`).to.deep.equal(revision.snap);
    });
    const current = await checkItem(model, real, item);
    const { updatedAt: _u, rank: _r, ...fields } = current.item;
    const want = { ...fields, mergedInto: null, participants: current.participants.length };
    for (const [field, value] of Object.entries(want)) {
      expect(folded[field] ?? null, `${item.key} folded ${field}`).to.deep.equal(value);
    }

    // as of a revision: that revision, with its time; as of the last one: get_item itself
    const r = this.revision % revisions.length;
    const byNumber = await owner.get(`${path}/as-of?revision=${r}`);
    expectAnswer(byNumber, 200);
    expect(byNumber.body.revision).to.equal(r);
    expect(byNumber.body.at).to.equal(changes[r].occurredAt);
    expect(snapOf(byNumber.body.item), `${item.key} as of ${r}`).to.deep.equal(revisions[r]!.snap);
    expect(byNumber.body.item.updatedAt).to.equal(changes[r].occurredAt);
    expect(byNumber.body.replies).to.deep.equal(
      current.replies.slice(0, revisions[r]!.snap.replyCount),
    );
    const at = changes[r].occurredAt as number;
    const byMoment = await owner.get(`${path}/as-of?at=${at}`);
    expectAnswer(byMoment, 200);
    // "a moment between two revisions answers the earlier": the last revision at or before it
    const last = changes.findLastIndex((c) => c.occurredAt <= at);
    expect(byMoment.body.revision, `${item.key} as of ${at}`).to.equal(last);
    const end = await owner.get(`${path}/as-of?revision=${revisions.length - 1}`);
    const { revision: _rev, at: _at, ...asGetItem } = end.body;
    expect(asGetItem, `${item.key} as of its last revision`).to.deep.equal(current);
    expectRefused(await owner.get(`${path}/as-of?revision=${revisions.length}`), 404, 'not-found');
  }
  toString = () =>
    `ReplayItem(#${this.index}, pageSize=${this.pageSize}, revision=${this.revision})`;
}
