import {
  type ItemCommand,
  type ItemEvent,
  type ItemState,
  itemDecider,
} from '../../../commands/item/index.js';

/** The item's state after `events`, as the command handler folds it. */
export const fold = (events: readonly ItemEvent[]): ItemState =>
  events.reduce(itemDecider.evolve, itemDecider.initialState());

/** What the decider answers `command` with after `events`. */
export const decide = (events: readonly ItemEvent[], command: ItemCommand) =>
  itemDecider.decide(command, fold(events));

export const author = { personId: 'p1', tier: 'email' as const, displayName: 'Pat', avatar: null };

export function captured(number = 1, personId = 'p1'): ItemEvent {
  return {
    type: 'ItemCaptured',
    data: {
      workspaceId: 'w1',
      productKey: 'ACME',
      itemKey: `ACME-${number}`,
      number,
      title: 'Dark mode',
      body: 'Please add a dark mode',
      author: { ...author, personId },
    },
  };
}

export const plusOne = (personId: string, addressedTo = 'ACME-1'): ItemEvent => ({
  type: 'PlusOneAdded',
  data: { personId, addressedTo },
});

type Standing = Pick<
  Extract<ItemEvent, { type: 'PlusOneWithdrawn' }>['data'],
  'plusOneAt' | 'participant'
>;
/** where a person whose only role was the +1 stands after withdrawing it: nowhere */
export const gone: Standing = { plusOneAt: null, participant: null };

export const withdrawn = (
  personId: string,
  addressedTo = 'ACME-1',
  standing: Standing = gone,
): ItemEvent => ({ type: 'PlusOneWithdrawn', data: { personId, addressedTo, ...standing } });

export function replied(
  replyId: string,
  authorId: string,
  kind: 'person' | 'maker' = 'person',
): ItemEvent {
  return {
    type: 'ItemReplied',
    data: {
      replyId,
      parentId: null,
      authorKind: kind,
      authorId,
      authorName: null,
      authorAvatar: null,
      body: 'me too',
    },
  };
}

export const statusChanged = (from: string, to: string): ItemEvent =>
  ({ type: 'ItemStatusChanged', data: { from, to } }) as ItemEvent;
