/**
 * Unmerge (issue 15): "because a merge is events, it can be undone exactly. The merged item comes
 * back with its own status, title, body, tags, replies, +1s and people; the survivor keeps only
 * what it had plus what reached it independently (a person who +1'd both stays on both).
 * Idempotent ... a key that was never merged into this item answers 400. Merging the same items
 * again after an unmerge reproduces the first merge's answers."
 */
import { expect } from 'chai';
import {
  type ItemEvent,
  type ItemFacts,
  type ItemState,
  itemDecider,
  mergedPeopleCount,
  mergeSnapshot,
  participantsOf,
  plusOnesIn,
  peopleIn,
  contributionsIn,
} from '../../../commands/item/index.js';
import { FailedPrecondition, InvalidArgument } from '../../../commands/shared/errors.js';
import { deciderSpec } from '../../support/decider.js';
import { captured, decide, fold, plusOne, replied, statusChanged } from './fixtures.js';

const given = deciderSpec(itemDecider);
const facts = (state: ItemState) => state as ItemFacts & { status: string };

// ACME-2 (by p2, +1 p3, reply by p4) is merged into ACME-1 (by p1, +1 p3: p3 +1'd both).
const duplicate: ItemEvent[] = [
  captured(2, 'p2'),
  statusChanged('new', 'planned'),
  plusOne('p3', 'ACME-2'),
  replied('r9', 'p4'),
];
const markedDuplicate: ItemEvent[] = [
  ...duplicate,
  { type: 'ItemMergedInto', data: { survivorKey: 'ACME-1' } },
];
const survivorBefore: ItemEvent[] = [captured(1, 'p1'), plusOne('p3', 'ACME-1')];
const mergeEvents = (survivor: readonly ItemEvent[]) =>
  decide(survivor, {
    type: 'RecordMerge',
    data: { merged: [mergeSnapshot(fold(markedDuplicate))] },
  });
const merged = [...survivorBefore, ...mergeEvents(survivorBefore)];
const unmerge = (...itemKeys: string[]) => ({ type: 'RecordUnmerge', data: { itemKeys } }) as const;

describe('When the survivor unmerges an item merged into it', () => {
  it('returns to exactly the people and +1s it had before the merge', () => {
    const after = fold([...merged, ...decide(merged, unmerge('ACME-2'))]);
    const before = fold(survivorBefore);
    expect(peopleIn(facts(after).roster)).to.deep.equal(peopleIn(facts(before).roster));
    expect(plusOnesIn(facts(after).roster)).to.deep.equal(plusOnesIn(facts(before).roster));
    expect(participantsOf(contributionsIn(facts(after).roster))).to.deep.equal(
      participantsOf(contributionsIn(facts(before).roster)),
    );
    expect(facts(after).merges).to.deep.equal({});
  });

  it('says who leaves, and counts the people restored as the merge counted them', () => {
    const [event] = decide(merged, unmerge('ACME-2'));
    expect(event).to.deep.include({ type: 'ItemsUnmerged' });
    const data = (event as Extract<ItemEvent, { type: 'ItemsUnmerged' }>).data;
    expect(data.removedPeople).to.deep.equal(['p2', 'p4']);
    expect(data.unmerged).to.deep.equal([
      { itemKey: 'ACME-2', restoredPeople: 2, returnedPlusOnes: [] },
    ]);
    expect(mergedPeopleCount(facts(fold(merged)), ['ACME-2'])).to.equal(2);
    expect(data.participants).to.deep.equal([
      { personId: 'p1', role: 'submitted', context: null },
      { personId: 'p3', role: 'plus-one', context: null },
    ]);
    expect(data.plusOnes).to.deep.equal(['p3']);
  });

  it('keeps a person who reached the survivor independently after the merge, with that role', () => {
    // p2 came with the merge as a +1, then replied on the survivor directly
    const meanwhile = [...merged, replied('r20', 'p2')];
    const [event] = decide(meanwhile, unmerge('ACME-2'));
    const data = (event as Extract<ItemEvent, { type: 'ItemsUnmerged' }>).data;
    expect(data.removedPeople).to.deep.equal(['p4']);
    expect(data.changedRoles).to.deep.equal([{ personId: 'p2', role: 'replied' }]);
    expect(data.participants.map((p) => [p.personId, p.role, p.context])).to.deep.equal([
      ['p1', 'submitted', null],
      ['p3', 'plus-one', null],
      ['p2', 'replied', null],
    ]);
  });

  it('records a direct +1 of a person the merge made a +1 (it keeps them after an unmerge)', () => {
    given(merged)
      .when({ type: 'AddPlusOne', data: { personId: 'p2' } })
      .then([plusOne('p2', 'ACME-1')]);
    const after = [...merged, plusOne('p2', 'ACME-1')];
    expect(plusOnesIn(facts(fold(after)).roster)).to.deep.equal(
      plusOnesIn(facts(fold(merged)).roster),
    );
    const [event] = decide(after, unmerge('ACME-2'));
    expect((event as Extract<ItemEvent, { type: 'ItemsUnmerged' }>).data.plusOnes).to.deep.equal([
      'p3',
      'p2',
    ]);
  });

  it('gives back the +1s given on the merged item while it was merged', () => {
    given(merged)
      .when({ type: 'AddPlusOne', data: { personId: 'p8', addressedTo: 'ACME-2' } })
      .then([plusOne('p8', 'ACME-2')]);
    const after = [...merged, plusOne('p8', 'ACME-2')];
    expect(participantsOf(contributionsIn(facts(fold(after)).roster)).at(-1)).to.deep.equal({
      personId: 'p8',
      role: 'plus-one',
      context: '+1 on ACME-2',
    });
    given(after)
      .when({ type: 'AddPlusOne', data: { personId: 'p8', addressedTo: 'ACME-2' } })
      .then([]);
    const [event] = decide(after, unmerge('ACME-2'));
    const data = (event as Extract<ItemEvent, { type: 'ItemsUnmerged' }>).data;
    expect(data.unmerged[0]!.returnedPlusOnes).to.deep.equal(['p8']);
    expect(data.removedPeople).to.include('p8');
  });

  it('appends nothing when repeated, and refuses a key never merged into it', () => {
    const done = [...merged, ...decide(merged, unmerge('ACME-2'))];
    given(done).when(unmerge('ACME-2')).then([]);
    given(done)
      .when(unmerge('ACME-7'))
      .thenThrows(InvalidArgument, /never merged into ACME-1/);
    given(survivorBefore).when(unmerge('ACME-2')).thenThrows(InvalidArgument);
  });
});

describe('When the merged item is marked unmerged', () => {
  const mark = (plusOnes: string[] = []) =>
    ({ type: 'MarkUnmerged', data: { survivorKey: 'ACME-1', plusOnes } }) as const;

  it('takes triage commands again, keeping its own status, and counts the returned +1s once', () => {
    given(markedDuplicate)
      .when(mark(['p8', 'p3', 'p2', 'p8']))
      .then([{ type: 'ItemUnmerged', data: { survivorKey: 'ACME-1', plusOnes: ['p8'] } }]);
    given(markedDuplicate)
      .when(mark())
      .thenState((s) => expect(s).to.include({ status: 'open', itemStatus: 'planned' }));
  });

  it('is a no-op on an item already on its own, and refuses another survivor', () => {
    given(duplicate).when(mark()).then([]);
    given([...duplicate, { type: 'ItemMergedInto', data: { survivorKey: 'ACME-5' } }])
      .when(mark())
      .thenThrows(FailedPrecondition);
  });
});

describe('When the same items are merged again after an unmerge', () => {
  it('records the same merge as the first time', () => {
    const unmerged = [...merged, ...decide(merged, unmerge('ACME-2'))];
    const duplicateBack: ItemEvent[] = [
      ...markedDuplicate,
      { type: 'ItemUnmerged', data: { survivorKey: 'ACME-1', plusOnes: [] } },
      { type: 'ItemMergedInto', data: { survivorKey: 'ACME-1' } },
    ];
    const again = decide(unmerged, {
      type: 'RecordMerge',
      data: { merged: [mergeSnapshot(fold(duplicateBack))] },
    });
    expect(again).to.deep.equal(mergeEvents(survivorBefore));
    const survivor = facts(fold([...unmerged, ...again]));
    expect(participantsOf(contributionsIn(survivor.roster))).to.deep.equal(
      participantsOf(contributionsIn(facts(fold(merged)).roster)),
    );
  });
});
