/**
 * Who was told that an item shipped, across a merge. The spec is silent ("the survivor keeps the
 * +1s and the people"; notification is per item); a maker expects each person told once: the
 * people a shipped duplicate's notification reached are not told again on its shipped survivor,
 * and people nobody told put an announced survivor back among the shipped-unnotified.
 */
import { expect } from 'chai';
import {
  type ItemCommand,
  type ItemEvent,
  type ItemFacts,
  itemDecider,
  type MergeSnapshot,
  mergeSnapshot,
} from '../../../commands/item/index.js';
import { deciderSpec } from '../../support/decider.js';
import { captured, fold, plusOne, statusChanged } from './fixtures.js';

const given = deciderSpec(itemDecider);
const mergedInto: ItemEvent = { type: 'ItemMergedInto', data: { survivorKey: 'ACME-1' } };
const record = (snapshot: MergeSnapshot): ItemCommand => ({
  type: 'RecordMerge',
  data: { merged: [snapshot] },
});
const told = (...personIds: string[]): ItemEvent => ({
  type: 'PeopleNotified',
  data: {
    status: 'shipped',
    recipients: personIds.map((personId) => ({ personId, delivered: true })),
  },
});
const notifyAll = (...personIds: string[]): ItemCommand => ({
  type: 'NotifyPeople',
  data: { candidates: personIds.map((personId) => ({ personId, eligible: true })) },
});
const shipped = statusChanged('new', 'shipped');

// ACME-1 filed by p1, +1'd by p3; ACME-2 its duplicate, filed by p2, +1'd by p3 and p4
const survivor = [captured(1, 'p1'), plusOne('p3'), shipped];
const duplicate = [captured(2, 'p2'), plusOne('p3', 'ACME-2'), plusOne('p4', 'ACME-2'), shipped];
const snapshotOf = (events: ItemEvent[]) => mergeSnapshot(fold([...events, mergedInto]));
const announced = (s: unknown) => {
  const facts = s as ItemFacts;
  return facts.announced === facts.statusChanges;
};

describe('When a notified shipped duplicate is merged into a shipped survivor nobody told', () => {
  const merge = record(snapshotOf([...duplicate, told('p2', 'p3', 'p4')]));
  it('records who the duplicate told, each once, as told on the survivor', () => {
    given(survivor)
      .when(merge)
      .then([
        {
          type: 'ItemsMerged',
          data: {
            merged: [
              {
                itemKey: 'ACME-2',
                addedPeople: [
                  { personId: 'p2', role: 'plus-one' },
                  { personId: 'p4', role: 'plus-one' },
                ],
                told: ['p2', 'p3', 'p4'],
              },
            ],
          },
        },
      ]);
  });
  it("tells only the survivor's own people, never the duplicate's a second time", () => {
    const events = [...survivor, ...itemDecider.decide(merge, fold(survivor))];
    given(events)
      .when(notifyAll('p1', 'p3', 'p2', 'p4'))
      .then([
        {
          type: 'PeopleNotified',
          data: {
            status: 'shipped',
            recipients: [
              { personId: 'p1', delivered: true },
              { personId: 'p3', delivered: false, reason: 'already-notified' },
              { personId: 'p2', delivered: false, reason: 'already-notified' },
              { personId: 'p4', delivered: false, reason: 'already-notified' },
            ],
          },
        },
      ]);
  });
});

describe('When a never-notified shipped duplicate is merged into a notified shipped survivor', () => {
  const notified = [...survivor, told('p1', 'p3')];
  const merge = record(snapshotOf(duplicate));
  it('records the newcomers nobody told, and the survivor is announced no longer', () => {
    given(notified)
      .when(merge)
      .then([
        {
          type: 'ItemsMerged',
          data: {
            merged: [
              {
                itemKey: 'ACME-2',
                addedPeople: [
                  { personId: 'p2', role: 'plus-one' },
                  { personId: 'p4', role: 'plus-one' },
                ],
                untold: ['p2', 'p4'],
              },
            ],
          },
        },
      ]);
    expect(announced(fold(notified))).to.equal(true);
    given(notified)
      .when(merge)
      .thenState((s) => expect(announced(s)).to.equal(false));
  });
  it('tells exactly the newcomers, and then the survivor is announced again', () => {
    const events = [...notified, ...itemDecider.decide(merge, fold(notified))];
    const newcomers: ItemEvent = {
      type: 'PeopleNotified',
      data: {
        status: 'shipped',
        recipients: [
          { personId: 'p1', delivered: false, reason: 'already-notified' },
          { personId: 'p3', delivered: false, reason: 'already-notified' },
          { personId: 'p2', delivered: true },
          { personId: 'p4', delivered: true },
        ],
      },
    };
    given(events)
      .when(notifyAll('p1', 'p3', 'p2', 'p4'))
      .then([newcomers]);
    given([...events, newcomers])
      .when(notifyAll('p1', 'p3', 'p2', 'p4'))
      .thenState((s) => expect(announced(s)).to.equal(true));
  });
});

describe('When the survivor has not shipped', () => {
  it('carries nobody as told: its shipping is news to everyone', () => {
    const planned = [captured(1, 'p1'), statusChanged('new', 'planned')];
    const merge = record(snapshotOf([...duplicate, told('p2', 'p3', 'p4')]));
    given(planned)
      .when(merge)
      .then([
        {
          type: 'ItemsMerged',
          data: {
            merged: [
              {
                itemKey: 'ACME-2',
                addedPeople: [
                  { personId: 'p2', role: 'plus-one' },
                  { personId: 'p3', role: 'plus-one' },
                  { personId: 'p4', role: 'plus-one' },
                ],
              },
            ],
          },
        },
      ]);
  });
});

describe('When an ItemsMerged recorded before who-was-told was tracked is replayed', () => {
  it('reads as carrying nobody and keeps the survivor announced, as it did', () => {
    const old: ItemEvent = {
      type: 'ItemsMerged',
      data: {
        merged: [{ itemKey: 'ACME-2', addedPeople: [{ personId: 'p2', role: 'plus-one' }] }],
      },
    };
    const state = fold([...survivor, told('p1', 'p3'), old]) as ItemFacts;
    expect(announced(state)).to.equal(true);
    expect(state.notified.has('p2')).to.equal(false);
  });
});
