/**
 * draft_changelog_entry. Spec "Close the loop" rule 3: it "returns a headline, a body and an
 * acknowledgment for reading, and writes the public entry only when `publish` is true".
 *
 * The draft, from the items read model:
 *  - title: the item's title (the headline of the announcement);
 *  - body: the item's body, a line naming the merged duplicates it also answers, then the
 *    acknowledgment line ("Requested by Ada, Bob and 3 others.");
 *  - itemIds: the item and every item living inside it — merged into it, or into an item merged
 *    into it, at any depth (APP-1 merged into APP-2, then APP-2 into APP-3: APP-3, APP-2, APP-1);
 *  - requesters: everyone on the item — submitter, +1s, people who replied, including those
 *    carried over from merged items (the same people notify_people tells). `requestedByCount`
 *    counts them all; `requestedByNames` lists, in the order they joined (the submitter first),
 *    those with a display name whose name the public board already shows — who filed or replied
 *    on the item or on an item living inside it.
 *    People who only gave a +1 are counted, not named: the board shows a +1's count, never who
 *    gave it, and the entry is public. Anonymous people without a name are counted too.
 * A given `title` / `body` replaces the drafted one; a title is trimmed, and one with nothing
 * left (only spaces) is refused with 400 like update_item's. Without `publish: true` nothing is written.
 * With it, one public entry per item (`chg-<ITEMKEY>`): publishing again with other text revises
 * the entry, with the same text changes nothing.
 *
 * Only a shipped item can be announced (spec: "Transition to shipped makes the item eligible
 * for ... draft_changelog_entry"); any other status, or a merged item, is a 400
 * `invalid-argument` (the declared status that fits), for drafts too, so a draft never
 * announces what has not shipped.
 */
import {
  changelogDecider,
  changelogEntryId,
  changelogStreamId,
} from '../../../commands/changelog/index.js';
import { InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import { characters, cutAt, emptyOrReadableText, nameText } from '../../../commands/shared/text.js';
import { type ItemDoc, itemDocId, itemsOf } from '../../../projections/items/document.js';
import { peopleOf } from '../../../projections/people/projector.js';
import { assertItemOfProduct, type CommandContext, type FeedbackDeps } from '../actions/deps.js';
import { docsInside, followMergedDocs, mergedMessage } from '../actions/merge-chain.js';
import type { ItemAddress } from '../actions/triage.js';
import { notShipped } from './notify.js';
import { acknowledgment } from '../../../projections/changelog/render.js';
import type { Requester } from '../../../commands/changelog/index.js';

export interface ChangelogDraft {
  title: string;
  body: string;
  itemIds: string[];
  requestedByNames: string[];
  requestedByCount: number;
  publishedId: string | null;
}

const MAX_BODY = 50_000;

export async function draftChangelogEntry(
  deps: FeedbackDeps,
  context: CommandContext,
  input: ItemAddress & { title?: string; body?: string; publish?: boolean },
): Promise<ChangelogDraft & { position: bigint | null }> {
  assertItemOfProduct(input.productKey, input.itemKey);
  const items = itemsOf(deps.readStore);
  const doc = await items.findOne({ _id: itemDocId(input.workspaceId, input.itemKey) });
  if (!doc) throw new NotFound('item not found');
  if (doc._mergedInto !== null) {
    const { chain } = await followMergedDocs(deps.readStore, input.workspaceId, doc.id);
    throw new InvalidArgument(`${mergedMessage(chain)}; announce ${chain.at(-1)} instead`);
  }
  if (doc.status !== 'shipped')
    throw notShipped(doc.id, doc.status, 'a changelog entry is drafted for it');

  // every item living inside it, at any depth: merged into it, or into an item merged into it
  const inside = await docsInside(deps.readStore, doc);
  const merged = [...inside].sort((a, b) => a._n - b._n);
  const requesters = await requestersOf(deps, doc, merged);
  const draft: ChangelogDraft = {
    title: input.title === undefined ? doc.title : givenTitle(input.title),
    body: input.body === undefined ? draftBody(doc, merged, requesters) : givenBody(input.body),
    itemIds: [doc.id, ...inside.map((m) => m.id)],
    requestedByNames: requesters.names,
    requestedByCount: requesters.count,
    publishedId: null,
  };
  if (input.publish !== true) return { ...draft, position: null };

  const entryId = changelogEntryId(doc.id);
  const { publishedId: _none, ...shown } = draft;
  const fields = { ...shown, requestedBy: requesters.requestedBy };
  const result = await deps.commandHandler.handle(
    changelogStreamId(input.workspaceId, doc.id),
    changelogDecider,
    {
      type: 'PublishChangelogEntry',
      data: {
        entryId,
        workspaceId: input.workspaceId,
        productKey: doc.productId,
        itemKey: doc.id,
        ...fields,
      },
    },
    context,
  );
  return { ...draft, publishedId: entryId, position: result.position };
}

/**
 * A given title, trimmed before it is measured (as update_item's): the schema's "1 to 500" let
 * a title of only spaces through, which the draft then swapped for the item's title unasked.
 */
function givenTitle(title: string): string {
  return nameText(title.trim(), 'title', 500);
}

/**
 * A given body, held to what publishing it would be (the changelog decider's rule): a draft
 * that echoed a NUL or an escape sequence back as fine was then refused on publish, and one of
 * only spaces or invisible characters (U+200B) showed readers an entry with nothing under its title.
 */
function givenBody(body: string): string {
  return emptyOrReadableText(body, 'body', MAX_BODY);
}

async function requestersOf(
  deps: FeedbackDeps,
  doc: ItemDoc,
  merged: readonly ItemDoc[],
): Promise<{ names: string[]; count: number; requestedBy: Requester[] }> {
  const ids = doc._participants.map((p) => p.personId);
  const people = await peopleOf(deps.readStore).find({ _id: { $in: ids } });
  const byId = new Map(people.map((p) => [p._id, p]));
  // a merged item's submitter joins the survivor as a +1, but was shown as its item's author:
  // the items on which each person filed or replied
  const shownOn = new Map<string, string[]>();
  for (const item of [doc, ...merged]) {
    for (const p of item._participants) {
      if (p.role === 'plus-one') continue;
      const on = shownOn.get(p.personId) ?? [];
      if (!on.includes(item.id)) on.push(item.id);
      shownOn.set(p.personId, on);
    }
  }
  const names: string[] = [];
  const requestedBy: Requester[] = [];
  for (const personId of ids) {
    const on = shownOn.get(personId);
    const name = on ? byId.get(personId)?.displayName?.trim() : undefined;
    if (name) names.push(name);
    requestedBy.push(name && on ? { personId, namedVia: on } : { personId });
  }
  return { names, count: ids.length, requestedBy };
}

function draftBody(
  doc: ItemDoc,
  merged: readonly ItemDoc[],
  requesters: { names: string[]; count: number },
): string {
  const tail: string[] = [];
  if (merged.length)
    tail.push(`Also answers: ${merged.map((m) => `${m.title} (${m.id})`).join('; ')}.`);
  tail.push(acknowledgment(requesters.names, requesters.count));
  const after = `\n\n${tail.join('\n\n')}`;
  const room = Math.max(0, MAX_BODY - characters(after));
  return cutAt(`${cutAt(doc.body, room)}${after}`, MAX_BODY);
}
