import { expect } from 'chai';
import {
  type ItemCommand,
  type ItemEvent,
  type ItemState,
  itemDecider,
  type MergeSnapshot,
  mergedPeopleCount,
  mergeSnapshot,
  plusOnesIn,
  peopleIn,
  type ItemFacts,
} from '../../../commands/item/index.js';
import { FailedPrecondition, InvalidArgument } from '../../../commands/shared/errors.js';
import { deciderSpec } from '../../support/decider.js';
import { captured, fold, plusOne, replied, statusChanged } from './fixtures.js';

const given = deciderSpec(itemDecider);
const mergedInto = (survivorKey: string): ItemEvent => ({
  type: 'ItemMergedInto',
  data: { survivorKey },
});
const markInto = (survivorKey: string) =>
  ({ type: 'MarkMergedInto', data: { survivorKey } }) as const;

// ACME-2 duplicates ACME-1: filed by p2, +1'd by p1 (the survivor's submitter) and p3, p4 replied.
const duplicate = [
  captured(2, 'p2'),
  plusOne('p1', 'ACME-2'),
  plusOne('p3', 'ACME-2'),
  replied('r9', 'p4'),
  mergedInto('ACME-1'),
];
const snapshot = (events: ItemEvent[]): MergeSnapshot => mergeSnapshot(fold(events));
const record = (...snapshots: MergeSnapshot[]) =>
  ({ type: 'RecordMerge', data: { merged: snapshots } }) as const;

describe('When an item is marked as merged into a survivor', () => {
  it('records where it went', () => {
    given([captured(2)])
      .when(markInto('ACME-1'))
      .then([mergedInto('ACME-1')]);
  });
  it('is a no-op when it already went to the same survivor (retry)', () => {
    given([captured(2), mergedInto('ACME-1')])
      .when(markInto('ACME-1'))
      .then([]);
  });
  it('refuses to merge it twice into different survivors', () => {
    // issue 3: "no item can be merged twice or into itself"
    given([captured(2), mergedInto('ACME-1')])
      .when(markInto('ACME-3'))
      .thenThrows(FailedPrecondition);
  });
  it('refuses to merge it into itself', () => {
    given([captured(2)])
      .when(markInto('ACME-2'))
      .thenThrows(InvalidArgument);
  });
  it('keeps its status and refuses further changes', () => {
    given([captured(2), statusChanged('new', 'planned'), mergedInto('ACME-1')])
      .when(markInto('ACME-1'))
      .thenState((s) => expect(s).to.include({ status: 'merged', itemStatus: 'planned' }));
    given([captured(2), mergedInto('ACME-1')])
      .when({ type: 'ChangeItemStatus', data: { status: 'declined' } })
      .thenThrows(FailedPrecondition, /merged into ACME-1/);
    given([captured(2), mergedInto('ACME-1')])
      .when({ type: 'AddPlusOne', data: { personId: 'p7' } })
      .thenThrows(FailedPrecondition);
  });
});

describe('When the survivor records a merge', () => {
  it('keeps the +1s and the people, each person once', () => {
    // spec rule 1: "that item is the survivor and keeps the +1s and the people"
    const survivor = [captured(1, 'p1'), plusOne('p3')];
    given(survivor)
      .when(record(snapshot(duplicate)))
      .then([
        {
          type: 'ItemsMerged',
          data: {
            merged: [
              {
                itemKey: 'ACME-2',
                addedPeople: [
                  { personId: 'p2', role: 'plus-one' },
                  { personId: 'p4', role: 'replied' },
                ],
              },
            ],
          },
        },
      ]);
    given(survivor)
      .when(record(snapshot(duplicate)))
      .thenState((s) => {
        const facts = s as Extract<ItemState, { status: 'open' }>;
        expect(plusOnesIn(facts.roster)).to.deep.equal(['p3', 'p2']);
        expect(Object.keys(peopleIn(facts.roster)).sort()).to.deep.equal(['p1', 'p2', 'p3', 'p4']);
        expect(mergedPeopleCount(facts, ['ACME-2'])).to.equal(2);
      });
  });
  it('turns a replier of the survivor who +1d the duplicate into a +1', () => {
    given([captured(1, 'p1'), replied('r1', 'p3')])
      .when(record(snapshot(duplicate)))
      .thenState((s) => expect(plusOnesIn((s as ItemFacts).roster)).to.include('p3'));
  });
  it('appends nothing when the merge was already recorded (retry)', () => {
    const once = itemDecider.decide(record(snapshot(duplicate)), fold([captured(1)]));
    given([captured(1), ...once])
      .when(record(snapshot(duplicate)))
      .then([]);
  });
  it('refuses a snapshot of an item merged elsewhere or not yet marked', () => {
    const elsewhere = [captured(2, 'p2'), mergedInto('ACME-3')];
    given([captured(1)])
      .when(record(snapshot(elsewhere)))
      .thenThrows(FailedPrecondition);
    expect(() => mergeSnapshot(fold([captured(2)]))).to.throw(FailedPrecondition);
  });
  it('refuses to record a merge on an item that was itself merged', () => {
    given([captured(1), mergedInto('ACME-5')])
      .when(record(snapshot(duplicate)))
      .thenThrows(FailedPrecondition);
  });
});

describe('When requesters are notified', () => {
  const shipped = [captured(1, 'p1'), plusOne('p2'), statusChanged('new', 'shipped')];
  const notify: ItemCommand = {
    type: 'NotifyPeople',
    data: {
      candidates: [
        { personId: 'p1', eligible: true },
        { personId: 'p2', eligible: false, reason: 'anonymous' },
      ],
    },
  };
  const notified: ItemEvent = {
    type: 'PeopleNotified',
    data: {
      status: 'shipped',
      recipients: [
        { personId: 'p1', delivered: true },
        { personId: 'p2', delivered: false, reason: 'anonymous' },
      ],
    },
  };
  it('records who should hear about the shipped status', () => {
    given(shipped).when(notify).then([notified]);
  });
  it('appends nothing when everyone eligible was already told (repeat)', () => {
    given([...shipped, notified])
      .when(notify)
      .then([]);
  });
  it('refuses an item that has not shipped', () => {
    given([captured(1)])
      .when(notify)
      .thenThrows(FailedPrecondition);
  });

  // issue 4: who_needs_followup's shippedUnnotified is "shipped and nobody told since it shipped";
  // an item whose requesters are all ineligible must still leave it once a maker has notified.
  const nobodyEligible: ItemCommand = {
    type: 'NotifyPeople',
    data: { candidates: [{ personId: 'p2', eligible: false, reason: 'anonymous' }] },
  };
  const allSkipped: ItemEvent = {
    type: 'PeopleNotified',
    data: {
      status: 'shipped',
      recipients: [{ personId: 'p2', delivered: false, reason: 'anonymous' }],
    },
  };
  it('records the announcement once even when nobody is eligible, and not again', () => {
    given(shipped).when(nobodyEligible).then([allSkipped]);
    given([...shipped, allSkipped])
      .when(nobodyEligible)
      .then([]);
  });
  it('tells people again after the item changed status and shipped once more', () => {
    given([
      ...shipped,
      notified,
      statusChanged('shipped', 'in-progress'),
      statusChanged('in-progress', 'shipped'),
    ])
      .when(notify)
      .then([notified]);
  });
});
