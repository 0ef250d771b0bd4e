/**
 * Issue 12: "One +1 per person per item (toggle); it counts in plusOneCount and makes the visitor
 * a participant." Withdrawing is the other half of the toggle: it removes exactly the +1 given on
 * that address, the submitter's own request is not a +1, and an unmerge afterwards does not give
 * back a +1 that was withdrawn (issue 15: the survivor "keeps only what it had plus what reached it
 * independently").
 */
import { expect } from 'chai';
import {
  type ItemCommand,
  type ItemEvent,
  type ItemFacts,
  itemDecider,
  mergeSnapshot,
  participantsOf,
  plusOnesIn,
  peopleIn,
  contributionsIn,
} from '../../../commands/item/index.js';
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import { deciderSpec } from '../../support/decider.js';
import { captured, decide, fold, gone, plusOne, replied, withdrawn } from './fixtures.js';

const given = deciderSpec(itemDecider);
const facts = (events: readonly ItemEvent[]) => fold(events) as ItemFacts & { status: string };

const withdraw = (personId: string, addressedTo?: string): ItemCommand => ({
  type: 'WithdrawPlusOne',
  data: { personId, ...(addressedTo ? { addressedTo } : {}) },
});
describe('When a person withdraws their +1', () => {
  it('records the withdrawal, and they no longer count nor take part', () => {
    given([captured(), plusOne('p2')])
      .when(withdraw('p2'))
      .then([withdrawn('p2', 'ACME-1', gone)]);
    given([captured(), plusOne('p2'), plusOne('p3')])
      .when(withdraw('p2'))
      .thenState((state) => {
        expect(plusOnesIn((state as ItemFacts).roster)).to.deep.equal(['p3']);
        expect(peopleIn((state as ItemFacts).roster)).to.deep.equal({
          p1: 'submitted',
          p3: 'plus-one',
        });
      });
  });
  it('appends nothing when withdrawn again, or never given', () => {
    given([captured(), plusOne('p2'), withdrawn('p2', 'ACME-1', gone)])
      .when(withdraw('p2'))
      .then([]);
    given([captured()]).when(withdraw('p2')).then([]);
  });
  it('can give the +1 again after withdrawing it (a toggle)', () => {
    given([captured(), plusOne('p2'), withdrawn('p2', 'ACME-1', gone)])
      .when({ type: 'AddPlusOne', data: { personId: 'p2' } })
      .then([plusOne('p2')]);
  });
  it("leaves the submitter's own request alone: it is not a +1", () => {
    given([captured()]).when(withdraw('p1')).then([]);
    given([captured(), plusOne('p2')])
      .when(withdraw('p1'))
      .thenState((state) => {
        expect(peopleIn((state as ItemFacts).roster).p1).to.equal('submitted');
        expect(plusOnesIn((state as ItemFacts).roster)).to.deep.equal(['p2']);
      });
  });
  it('keeps a person who also replied on the item, as a replier, placed where their reply came', () => {
    // p2 +1'd first, then p3 replied, then p2 replied: p2 now first came by replying, after p3
    const events = [captured(), plusOne('p2'), replied('r1', 'p3'), replied('r2', 'p2')];
    const standing = {
      plusOneAt: null,
      participant: { at: 2, role: 'replied' as const, context: null },
    };
    given(events)
      .when(withdraw('p2'))
      .then([withdrawn('p2', 'ACME-1', standing)]);
    const after = facts([...events, ...decide(events, withdraw('p2'))]);
    expect(
      participantsOf(contributionsIn(after.roster)).map((p) => [p.personId, p.role]),
    ).to.deep.equal([
      ['p1', 'submitted'],
      ['p3', 'replied'],
      ['p2', 'replied'],
    ]);
  });
  it('refuses on a merged item, like every change of its own', () => {
    const merged = [captured(2, 'p2'), plusOne('p3', 'ACME-2')];
    given([...merged, { type: 'ItemMergedInto', data: { survivorKey: 'ACME-1' } }])
      .when(withdraw('p3'))
      .thenThrows(FailedPrecondition, /merged into ACME-1/);
  });
});

// ACME-2 (by p2, +1 p3) merged into ACME-1 (by p1); then p8 +1s ACME-2, landing on ACME-1.
const duplicate: ItemEvent[] = [
  captured(2, 'p2'),
  plusOne('p3', 'ACME-2'),
  { type: 'ItemMergedInto', data: { survivorKey: 'ACME-1' } },
];
const survivor: ItemEvent[] = [captured(1, 'p1')];
const merged = [
  ...survivor,
  ...decide(survivor, { type: 'RecordMerge', data: { merged: [mergeSnapshot(fold(duplicate))] } }),
];
const addressed = [...merged, plusOne('p8', 'ACME-2')];

describe('When a +1 given on a merged item is withdrawn', () => {
  it('removes exactly that +1 from the survivor', () => {
    given(addressed)
      .when(withdraw('p8', 'ACME-2'))
      .then([withdrawn('p8', 'ACME-2', gone)]);
    const after = facts([...addressed, ...decide(addressed, withdraw('p8', 'ACME-2'))]);
    expect(plusOnesIn(after.roster)).to.deep.equal(plusOnesIn(facts(merged).roster));
    expect(peopleIn(after.roster)).to.deep.equal(peopleIn(facts(merged).roster));
  });
  it("does not touch the person's +1 given on the survivor itself", () => {
    const both = [...addressed, plusOne('p8', 'ACME-1')];
    given(both)
      .when(withdraw('p8', 'ACME-2'))
      .thenState((state) => expect(plusOnesIn((state as ItemFacts).roster)).to.include('p8'));
    // and the other way round: withdrawing on the survivor leaves the one given on ACME-2
    given(both)
      .when(withdraw('p8'))
      .thenState((state) => expect(plusOnesIn((state as ItemFacts).roster)).to.include('p8'));
  });
  it('appends nothing for a +1 the merge brought (it is not addressed to the merged item)', () => {
    given(addressed).when(withdraw('p3', 'ACME-2')).then([]);
  });
});

describe('When the survivor unmerges after a +1 was withdrawn', () => {
  it('does not give back the withdrawn +1', () => {
    // spec (unmerge): the +1s given on the merged item while merged go back with it
    const events = [...addressed, ...decide(addressed, withdraw('p8', 'ACME-2'))];
    const [unmerged] = decide(events, { type: 'RecordUnmerge', data: { itemKeys: ['ACME-2'] } });
    const data = (unmerged as Extract<ItemEvent, { type: 'ItemsUnmerged' }>).data;
    expect(data.unmerged[0]!.returnedPlusOnes).to.deep.equal([]);
    expect(data.plusOnes).to.deep.equal([]);
    expect(data.removedPeople).to.have.members(['p2', 'p3']);
  });
  it('still gives back the +1s that were not withdrawn', () => {
    const both = [...addressed, plusOne('p9', 'ACME-2')];
    const events = [...both, ...decide(both, withdraw('p8', 'ACME-2'))];
    const [unmerged] = decide(events, { type: 'RecordUnmerge', data: { itemKeys: ['ACME-2'] } });
    const data = (unmerged as Extract<ItemEvent, { type: 'ItemsUnmerged' }>).data;
    expect(data.unmerged[0]!.returnedPlusOnes).to.deep.equal(['p9']);
  });
});
