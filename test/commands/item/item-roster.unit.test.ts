/**
 * people.ts: "The item's people follow from the contributions: each person once, with the role
 * and the context of their FIRST contribution; its +1s are the people with a +1 among their
 * contributions (never the submitter)." The state keeps them in a persistent roster so that a
 * +1 costs O(log n) (roster.ts); these properties hold it to the list of contributions the old
 * fold kept, for any order of +1s, withdrawals, replies, merges and unmerges — and hold every
 * state handed out along the way to what it was when it was handed out.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import {
  type Contribution,
  contributionsIn,
  countsPlusOne,
  hasPlusOneVia,
  type ItemEvent,
  type ItemFacts,
  type ItemState,
  itemDecider,
  peopleIn,
  plusOnesIn,
  plusOnesOf,
  plusOneVia,
  roleOf,
  rolesOf,
  standingIn,
  standingOf,
} from '../../../commands/item/index.js';
import { captured, plusOne, replied, withdrawn } from './fixtures.js';

const SELF = 'ACME-1';
const PEOPLE = ['p1', 'p2', 'p3', 'p4', 'p5'];
const KEYS = [SELF, 'ACME-2', 'ACME-3'];
const MERGED = KEYS.slice(1);

const person = fc.constantFrom(...PEOPLE);
const role = fc.constantFrom('plus-one' as const, 'replied' as const);
const eventArb: fc.Arbitrary<ItemEvent> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(person, fc.constantFrom(...KEYS)).map(([p, k]) => plusOne(p, k)),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(person, fc.constantFrom(...KEYS)).map(([p, k]) => withdrawn(p, k)),
  },
  { weight: 2, arbitrary: fc.tuple(fc.uuid(), person).map(([id, p]) => replied(id, p)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...MERGED), fc.array(fc.record({ personId: person, role })))
      .map(([itemKey, addedPeople]) => ({
        type: 'ItemsMerged' as const,
        data: { merged: [{ itemKey, addedPeople }] },
      })),
  },
  {
    weight: 1,
    arbitrary: fc.subarray(MERGED, { minLength: 1 }).map(
      (keys): ItemEvent => ({
        type: 'ItemsUnmerged',
        data: {
          unmerged: keys.map((itemKey) => ({ itemKey, restoredPeople: 0, returnedPlusOnes: [] })),
          removedPeople: [],
          changedRoles: [],
          participants: [],
          plusOnes: [],
        },
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constant<ItemEvent>({ type: 'ItemMergedInto', data: { survivorKey: 'ACME-9' } }),
  },
  {
    weight: 1,
    arbitrary: fc.uniqueArray(person).map(
      (plusOnes): ItemEvent => ({
        type: 'ItemUnmerged',
        data: { survivorKey: 'ACME-9', plusOnes },
      }),
    ),
  },
);

/** The contributions as the fold kept them before the roster: a plain list, copied per event. */
function reference(contributions: readonly Contribution[], event: ItemEvent): Contribution[] {
  const own = (personId: string, role: Contribution['role']): Contribution => ({
    personId,
    role,
    source: 'own',
    from: null,
  });
  switch (event.type) {
    case 'ItemCaptured':
      return [own(event.data.author.personId, 'submitted')];
    case 'ItemReplied':
      return [...contributions, own(event.data.authorId, 'replied')];
    case 'PlusOneAdded': {
      const [source, from] = plusOneVia(SELF, event.data.addressedTo);
      return [...contributions, { personId: event.data.personId, role: 'plus-one', source, from }];
    }
    case 'PlusOneWithdrawn': {
      const [source, from] = plusOneVia(SELF, event.data.addressedTo);
      const theirs = (c: Contribution) =>
        c.personId === event.data.personId &&
        c.role === 'plus-one' &&
        c.source === source &&
        c.from === from;
      return contributions.filter((c) => !theirs(c));
    }
    case 'ItemsMerged':
      return [
        ...contributions,
        ...event.data.merged.flatMap(({ itemKey, addedPeople }) =>
          addedPeople.map((p) => ({ ...p, source: 'merged' as const, from: itemKey })),
        ),
      ];
    case 'ItemsUnmerged': {
      const keys = new Set(event.data.unmerged.map((u) => u.itemKey));
      return contributions.filter((c) => c.source === 'own' || !keys.has(c.from ?? ''));
    }
    case 'ItemUnmerged':
      return [...contributions, ...event.data.plusOnes.map((p) => own(p, 'plus-one'))];
    default:
      return [...contributions];
  }
}

function expectSameAs(state: ItemState, expected: readonly Contribution[]): void {
  const { roster } = state as ItemFacts;
  expect(contributionsIn(roster)).to.deep.equal(expected);
  // the people in the order they came (notify_people and merges read them in that order)
  expect(Object.entries(peopleIn(roster))).to.deep.equal(Object.entries(rolesOf(expected)));
  expect(plusOnesIn(roster)).to.deep.equal(plusOnesOf(expected, 'p1'));
  const roles = rolesOf(expected);
  const plusOnes = plusOnesOf(expected, 'p1');
  for (const p of PEOPLE) {
    expect(roleOf(roster, p), `${p}'s role`).to.equal(roles[p]);
    expect(countsPlusOne(roster, p), `${p} counted`).to.equal(plusOnes.includes(p));
    expect(standingIn(roster, p), `${p}'s standing`).to.deep.equal(standingOf(expected, p, 'p1'));
    for (const key of KEYS) {
      const [source, from] = plusOneVia(SELF, key);
      const given = expected.some(
        (c) => c.personId === p && c.role === 'plus-one' && c.source === source && c.from === from,
      );
      expect(hasPlusOneVia(roster, p, source, from), `${p} +1 on ${key}`).to.equal(given);
    }
  }
}

describe('When any sequence of contributions is folded into an item', () => {
  it('has the contributions, people and +1s the contributions define, after every event', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 60 }), (events) => {
        let state = itemDecider.evolve(itemDecider.initialState(), captured());
        let expected = reference([], captured());
        for (const event of events) {
          state = itemDecider.evolve(state, event);
          expected = reference(expected, event);
          expectSameAs(state, expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('leaves every state handed out as it was: later events and other branches change none', () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { maxLength: 40 }),
        fc.array(eventArb, { maxLength: 10 }),
        (events, branch) => {
          // fold first, look afterwards: a view read late must still show its own state
          const states: ItemState[] = [itemDecider.evolve(itemDecider.initialState(), captured())];
          const expected: Contribution[][] = [reference([], captured())];
          for (const event of events) {
            states.push(itemDecider.evolve(states.at(-1)!, event));
            expected.push(reference(expected.at(-1)!, event));
          }
          // a second branch from a state in the middle (a batch's next command, a retry)
          const at = Math.floor(states.length / 2);
          let side = states[at]!;
          let sideExpected = expected[at]!;
          for (const event of branch) {
            side = itemDecider.evolve(side, event);
            sideExpected = reference(sideExpected, event);
          }
          for (const [i, state] of states.entries()) expectSameAs(state, expected[i]!);
          expectSameAs(side, sideExpected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
