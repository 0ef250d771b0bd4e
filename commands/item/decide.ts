/**
 * Item decisions.
 *
 * Merged-item status rule (spec: "effect on the merged items' status: not shown"): a merged
 * item KEEPS the status it had — no ItemStatusChanged is appended, because "declined" would tell
 * its requesters their request was refused when it actually lives on in the survivor. Instead
 * the item becomes `merged` (ItemMergedInto): it is read-only (every further command answers
 * failed-precondition naming the survivor), it leaves every listing and count (list_items,
 * product itemCount, follow-up, summaries, a person's open items — read models mark it with
 * `_mergedInto`), and get_item / resolve_item still answer for its key so old links work.
 */
import { FailedPrecondition, InvalidArgument, NotFound } from '../shared/errors.js';
import type { AuthorKind, InsidePlusOnes, ItemCaptured, ItemEvent, ItemStatus } from './events.js';
import { decideRecordMerge, type MergeSnapshot } from './merge.js';
import { plusOneVia } from './people.js';
import { hasPlusOneVia, standingIn, withdrawn } from './roster.js';
import { decideUnmark, decideUnmerge } from './unmerge.js';
import { type NotifyCandidate, planNotification, shouldRecordNotification } from './notify.js';
import { itemKeyOf } from '../product/keys.js';
import type { ItemFacts, ItemState } from './state.js';
import { deriveTitle } from './title.js';
import { characters, nameText, proseText, readableText } from '../shared/text.js';

type Cmd<T extends string, D> = { type: T; data: D };
/**
 * `ifAbsent`: an item already captured at that number is the one wanted (a submission folded
 * into another of the same person and body, which either may capture): capturing decides
 * nothing then, instead of refusing.
 */
export type CaptureItem = Cmd<
  'CaptureItem',
  Omit<ItemCaptured['data'], 'itemKey' | 'title'> & { title?: string | null; ifAbsent?: boolean }
>;
export type UpdateItem = Cmd<'UpdateItem', { title?: string; body?: string; status?: ItemStatus }>;
export type ChangeItemStatus = Cmd<'ChangeItemStatus', { status: ItemStatus }>;
export type TagItem = Cmd<'TagItem', { tagIds: string[] }>;
export type ReplyToItem = Cmd<
  'ReplyToItem',
  {
    replyId: string;
    parentId: string | null;
    authorKind: AuthorKind;
    authorId: string;
    authorName: string | null;
    authorAvatar: string | null;
    body: string;
  }
>;
/** `addressedTo`: the merged item the +1 was given on, when it lands on its survivor */
export type AddPlusOne = Cmd<'AddPlusOne', { personId: string; addressedTo?: string }>;
/** `addressedTo`: the merged item the withdrawn +1 was given on, when it landed on its survivor */
export type WithdrawPlusOne = Cmd<'WithdrawPlusOne', { personId: string; addressedTo?: string }>;
export type MarkMergedInto = Cmd<'MarkMergedInto', { survivorKey: string }>;
export type RecordMerge = Cmd<'RecordMerge', { merged: MergeSnapshot[] }>;
/**
 * On the survivor: give the merged items back. `inside`: per item given back, the keys of the
 * items living inside it (merged into it, at any depth), whose +1s go back with it (unmerge.ts).
 */
export type RecordUnmerge = Cmd<
  'RecordUnmerge',
  { itemKeys: string[]; inside?: Record<string, string[]> }
>;
/** On a merged item, after its survivor recorded the unmerge: live on its own again. */
export type MarkUnmerged = Cmd<
  'MarkUnmerged',
  { survivorKey: string; plusOnes: string[]; insidePlusOnes?: InsidePlusOnes }
>;
export type NotifyPeople = Cmd<'NotifyPeople', { candidates: NotifyCandidate[]; message?: string }>;

export type ItemCommand =
  | CaptureItem
  | UpdateItem
  | ChangeItemStatus
  | TagItem
  | ReplyToItem
  | AddPlusOne
  | WithdrawPlusOne
  | MarkMergedInto
  | RecordMerge
  | RecordUnmerge
  | MarkUnmerged
  | NotifyPeople;

export function decideItem(command: ItemCommand, state: ItemState): ItemEvent[] {
  if (command.type === 'CaptureItem') return capture(command, state);
  if (state.status === 'absent') throw new NotFound('item not found');
  if (command.type === 'MarkMergedInto') {
    const { survivorKey } = command.data;
    if (survivorKey === state.itemKey)
      throw new InvalidArgument('an item cannot be merged into itself');
    if (state.status === 'merged') {
      if (state.survivorKey === survivorKey) return [];
      throw new FailedPrecondition(`${state.itemKey} was already merged into ${state.survivorKey}`);
    }
    return [{ type: 'ItemMergedInto', data: { survivorKey } }];
  }
  if (command.type === 'MarkUnmerged') {
    const { survivorKey, plusOnes, insidePlusOnes } = command.data;
    if (state.status === 'open') return []; // already on its own again
    if (state.survivorKey !== survivorKey) {
      throw new FailedPrecondition(`${state.itemKey} was merged into ${state.survivorKey}`);
    }
    return decideUnmark(survivorKey, plusOnes, state, insidePlusOnes);
  }
  if (state.status === 'merged') {
    throw new FailedPrecondition(`${state.itemKey} was merged into ${state.survivorKey}`);
  }
  return decideOpen(command, state);
}

function decideOpen(
  command: Exclude<ItemCommand, CaptureItem | MarkMergedInto | MarkUnmerged>,
  state: ItemFacts,
): ItemEvent[] {
  switch (command.type) {
    case 'UpdateItem': {
      const { title, body, status } = command.data;
      const edit: { title?: string; body?: string } = {};
      if (title !== undefined && checkedTitle(title) !== state.title)
        edit.title = checkedTitle(title);
      if (body !== undefined && checkedBody(body) !== state.body) edit.body = checkedBody(body);
      const events: ItemEvent[] = Object.keys(edit).length
        ? [{ type: 'ItemEdited', data: edit }]
        : [];
      if (status !== undefined && status !== state.itemStatus) {
        events.push({ type: 'ItemStatusChanged', data: { from: state.itemStatus, to: status } });
      }
      return events;
    }
    case 'ChangeItemStatus':
      // spec: "when the item already has that status, `changed` is false and the call is safe to repeat"
      if (command.data.status === state.itemStatus) return [];
      return [
        { type: 'ItemStatusChanged', data: { from: state.itemStatus, to: command.data.status } },
      ];
    case 'TagItem': {
      const given = [...new Set(command.data.tagIds)];
      if (given.length > 20) throw new InvalidArgument('at most 20 tags');
      if (given.some((t) => t.length < 1 || characters(t) > 60)) {
        throw new InvalidArgument('each tag id must be 1 to 60 characters');
      }
      // a tag shown as nothing ("  ", U+200B) or breaking its line (NUL, \n) is no usable tag
      for (const tag of given) nameText(tag, 'each tag id', 60);
      // one tag however its text was composed: "café" typed as é or as e + U+0301, or with a
      // space around it, is one tag (Unicode audit: they were counted apart and missed by ?tag=)
      const tagIds = [...new Set(given.map(tagIdOf))];
      // spec rule 2: tag_item replaces the whole tag set
      if (sameList(tagIds, state.tagIds)) return [];
      return [{ type: 'ItemTagged', data: { tagIds } }];
    }
    case 'ReplyToItem': {
      const data = command.data;
      if (state.replyIds.has(data.replyId)) return [];
      readableText(data.body, 'reply body', 10_000);
      if (data.parentId !== null && !state.replyIds.has(data.parentId)) {
        throw new NotFound('parent reply not found on this item');
      }
      return [{ type: 'ItemReplied', data }];
    }
    case 'AddPlusOne': {
      const { personId } = command.data;
      const addressedTo = command.data.addressedTo ?? state.itemKey;
      const own = addressedTo === state.itemKey;
      // a person counts once; the submitter's own request is not an extra +1. A +1 through
      // another way than the ones already recorded (own, on a merged item, from a merge) is
      // recorded without changing the count: it is what keeps them here after an unmerge.
      if (own && personId === state.submitterId) return [];
      const via = plusOneVia(state.itemKey, addressedTo);
      if (hasPlusOneVia(state.roster, personId, ...via)) return [];
      return [{ type: 'PlusOneAdded', data: { personId, addressedTo } }];
    }
    case 'WithdrawPlusOne': {
      const { personId } = command.data;
      const addressedTo = command.data.addressedTo ?? state.itemKey;
      const own = addressedTo === state.itemKey;
      // issue 12: "One +1 per person per item (toggle)". The submitter's own request is not a +1,
      // so there is nothing of theirs to withdraw; nor is there when no +1 was recorded (again).
      if (own && personId === state.submitterId) return [];
      const via = plusOneVia(state.itemKey, addressedTo);
      if (!hasPlusOneVia(state.roster, personId, ...via)) return [];
      const after = withdrawn(state.roster, personId, ...via);
      return [
        {
          type: 'PlusOneWithdrawn',
          data: { personId, addressedTo, ...standingIn(after, personId) },
        },
      ];
    }
    case 'RecordMerge':
      return decideRecordMerge(command.data.merged, state);
    case 'RecordUnmerge':
      return decideUnmerge(command.data.itemKeys, state, command.data.inside);
    case 'NotifyPeople': {
      // spec: "Transition to shipped makes the item eligible for notify_people"
      if (state.itemStatus !== 'shipped') {
        throw new FailedPrecondition('only a shipped item can be announced to its requesters');
      }
      // the message is written to be read (recorded, sent to webhooks, mailed one day): prose
      const { message } = command.data;
      if (message !== undefined) proseText(message, 'message', 2000);
      const recipients = planNotification(state, command.data.candidates);
      if (!shouldRecordNotification(state, recipients)) return [];
      return [
        {
          type: 'PeopleNotified',
          data: { status: state.itemStatus, recipients, ...(message ? { message } : {}) },
        },
      ];
    }
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

function capture(command: CaptureItem, state: ItemState): ItemEvent[] {
  const { title, ifAbsent, ...data } = command.data;
  if (state.status !== 'absent') {
    if (ifAbsent) return [];
    throw new FailedPrecondition('item already exists');
  }
  const text = capturedText(data.body, title);
  const captured: ItemCaptured['data'] = {
    ...data,
    itemKey: itemKeyOf(data.productKey, data.number),
    body: text.body,
    title: text.title ?? deriveTitle(text.body),
  };
  if (captured.via === undefined) delete captured.via;
  if (captured.createdAt === undefined) delete captured.createdAt;
  return [{ type: 'ItemCaptured', data: captured }];
}

/**
 * A submission's body and title as CaptureItem takes them (a blank title: null, derived later),
 * or InvalidArgument: what a submission checks before it is given an item number, so a refused
 * one leaves no gap in the product's numbering and spends no rate bucket.
 */
export function capturedText(
  body: string,
  title: string | null | undefined,
): { body: string; title: string | null } {
  return { body: checkedBody(body), title: title?.trim() ? checkedTitle(title) : null };
}

function checkedTitle(title: string): string {
  return nameText(title.trim(), 'title', 500);
}

function checkedBody(body: string): string {
  return readableText(body, 'body', 50_000);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A tag id as stored and filtered by: NFC, without surrounding white space. */
export function tagIdOf(tag: string): string {
  return tag.normalize('NFC').trim();
}
