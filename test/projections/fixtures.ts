import type { ItemEvent } from '../../commands/item/index.js';
import type { PersonEvent } from '../../commands/person/index.js';
import { EventLog } from './harness.js';

export const WS = 'w1';
export const itemStream = (key: string) => `item-${WS}.${key}`;

export function captured(
  key: string,
  personId: string,
  extra: Partial<ItemEvent['data']> = {},
): ItemEvent {
  const number = Number(key.split('-')[1]);
  return {
    type: 'ItemCaptured',
    data: {
      workspaceId: WS,
      productKey: key.split('-')[0]!,
      itemKey: key,
      number,
      title: `Title ${key}`,
      body: 'Body',
      author: { personId, tier: 'email', displayName: `Name ${personId}`, avatar: null },
      ...extra,
    },
  } as ItemEvent;
}

export const personCreated = (personId: string, displayName: string): PersonEvent => ({
  type: 'PersonCreated',
  data: {
    personId,
    workspaceId: WS,
    tier: 'email',
    displayName,
    avatar: null,
    email: `${personId}@x.io`,
  },
});

/** ACME-1 (p1) with a +1 from p2 and a reply from p3; ACME-2 (p4) merged into ACME-1. */
export function boardLog(): EventLog {
  const log = new EventLog();
  for (const [id, name] of [
    ['p1', 'Ann'],
    ['p2', 'Bob'],
    ['p3', 'Cy'],
    ['p4', 'Di'],
  ] as const) {
    log.add(`person-${id}`, personCreated(id, name));
  }
  log.add(itemStream('ACME-1'), captured('ACME-1', 'p1', { via: 'pat:laptop' }));
  log.add(itemStream('ACME-1'), {
    type: 'PlusOneAdded',
    data: { personId: 'p2', addressedTo: 'ACME-1' },
  });
  log.add(itemStream('ACME-1'), {
    type: 'ItemReplied',
    data: {
      replyId: 'r1',
      parentId: null,
      authorKind: 'person',
      authorId: 'p3',
      authorName: 'Cy',
      authorAvatar: null,
      body: 'same here',
    },
  });
  log.add(itemStream('ACME-1'), { type: 'ItemTagged', data: { tagIds: ['ui'] } });
  log.add(itemStream('ACME-2'), captured('ACME-2', 'p4'));
  log.add(itemStream('ACME-2'), {
    type: 'PlusOneAdded',
    data: { personId: 'p2', addressedTo: 'ACME-2' },
  });
  log.add(itemStream('ACME-2'), { type: 'ItemMergedInto', data: { survivorKey: 'ACME-1' } });
  log.add(itemStream('ACME-1'), {
    type: 'ItemsMerged',
    data: { merged: [{ itemKey: 'ACME-2', addedPeople: [{ personId: 'p4', role: 'plus-one' }] }] },
  });
  log.add(
    itemStream('ACME-1'),
    { type: 'ItemStatusChanged', data: { from: 'new', to: 'planned' } },
    5_000,
  );
  log.add(itemStream('ACME-1'), {
    type: 'ItemReplied',
    data: {
      replyId: 'r2',
      parentId: 'r1',
      authorKind: 'maker',
      authorId: 'u1',
      authorName: 'Max',
      authorAvatar: null,
      body: 'on it',
    },
  });
  return log;
}
