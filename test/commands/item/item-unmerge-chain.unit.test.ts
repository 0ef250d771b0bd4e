/**
 * Unmerge in a merge chain: ACME-1 merged into ACME-2, then ACME-2 into ACME-3; p4's +1 on
 * ACME-1 landed on ACME-3. unmerge_items "undoes merges exactly": ACME-1 lives inside ACME-2,
 * so the +1 given on its key goes back with ACME-2 and is recorded there as given on ACME-1.
 * Events recorded before (no `insidePlusOnes`) fold as they did: the +1 stays on the survivor.
 */
import { expect } from 'chai';
import {
  contributionsIn,
  type ItemCommand,
  type ItemEvent,
  type ItemFacts,
  type ItemState,
  plusOnesIn,
} from '../../../commands/item/index.js';
import { captured, decide, fold, plusOne } from './fixtures.js';

const facts = (state: ItemState) => state as ItemFacts & { status: string };

// ACME-3 (by p3) took ACME-2 (by p2, with p1 who filed ACME-1 inside it); then p4 +1'd ACME-1
const survivor: ItemEvent[] = [
  captured(3, 'p3'),
  {
    type: 'ItemsMerged',
    data: {
      merged: [
        {
          itemKey: 'ACME-2',
          addedPeople: [
            { personId: 'p2', role: 'plus-one' },
            { personId: 'p1', role: 'plus-one' },
          ],
        },
      ],
    },
  },
  plusOne('p4', 'ACME-1'),
];
const inside = { 'ACME-2': ['ACME-1'] };

describe('When an item with items living inside it is unmerged', () => {
  it('gives back the +1s given on their keys with it, per key', () => {
    const events = decide(survivor, {
      type: 'RecordUnmerge',
      data: { itemKeys: ['ACME-2'], inside },
    });
    expect(events).to.deep.equal([
      {
        type: 'ItemsUnmerged',
        data: {
          unmerged: [
            {
              itemKey: 'ACME-2',
              restoredPeople: 3,
              returnedPlusOnes: [],
              insidePlusOnes: [{ itemKey: 'ACME-1', plusOnes: ['p4'] }],
            },
          ],
          removedPeople: ['p2', 'p1', 'p4'],
          changedRoles: [],
          participants: [{ personId: 'p3', role: 'submitted', context: null }],
          plusOnes: [],
        },
      },
    ]);
    const after = facts(fold([...survivor, ...events]));
    expect(plusOnesIn(after.roster)).to.deep.equal([]);
    expect(after.unmerges['ACME-2']?.insidePlusOnes).to.deep.equal([
      { itemKey: 'ACME-1', plusOnes: ['p4'] },
    ]);
  });

  it('folds an ItemsUnmerged recorded before, without insidePlusOnes, as it did', () => {
    const old: ItemEvent = {
      type: 'ItemsUnmerged',
      data: {
        unmerged: [{ itemKey: 'ACME-2', restoredPeople: 2, returnedPlusOnes: [] }],
        removedPeople: ['p2', 'p1'],
        changedRoles: [],
        participants: [
          { personId: 'p3', role: 'submitted', context: null },
          { personId: 'p4', role: 'plus-one', context: '+1 on ACME-1' },
        ],
        plusOnes: ['p4'],
      },
    };
    expect(plusOnesIn(facts(fold([...survivor, old])).roster)).to.deep.equal(['p4']);
  });
});

describe('When the item given back takes itself back', () => {
  const merged: ItemEvent[] = [
    captured(2, 'p2'),
    { type: 'ItemMergedInto', data: { survivorKey: 'ACME-3' } },
  ];
  const mark: ItemCommand = {
    type: 'MarkUnmerged',
    data: {
      survivorKey: 'ACME-3',
      plusOnes: [],
      insidePlusOnes: [{ itemKey: 'ACME-1', plusOnes: ['p4'] }],
    },
  };

  it('records those +1s as given on the item living inside it, once', () => {
    const events = decide(merged, mark);
    expect(events).to.deep.equal([
      {
        type: 'ItemUnmerged',
        data: {
          survivorKey: 'ACME-3',
          plusOnes: [],
          insidePlusOnes: [{ itemKey: 'ACME-1', plusOnes: ['p4'] }],
        },
      },
    ]);
    const after = facts(fold([...merged, ...events]));
    expect(contributionsIn(after.roster).at(-1)).to.deep.equal({
      personId: 'p4',
      role: 'plus-one',
      source: 'addressed',
      from: 'ACME-1',
    });
    // already recorded there (a +1 given on ACME-1 before ACME-2 was merged): not twice
    const given = [...merged.slice(0, 1), plusOne('p4', 'ACME-1'), ...merged.slice(1)];
    expect(decide(given, mark)).to.deep.equal([
      { type: 'ItemUnmerged', data: { survivorKey: 'ACME-3', plusOnes: [] } },
    ]);
  });
});
