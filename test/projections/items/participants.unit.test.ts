/**
 * The item's people are computed twice: by the decider's state (commands/item/people.ts, which
 * an unmerge uses to say who stays) and incrementally by the items and people read models. Issue
 * 15 wants one truth ("unmerge returns both items to exactly their pre-merge get_item answers,
 * people's item lists included"), so for any sequence of +1s, replies, merges and unmerges the
 * two must agree: participants (order, role, context), +1s, and each person's role per item.
 * Withdrawn +1s (issue 12's toggle) are part of the mix.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import {
  type ItemCommand,
  type ItemEvent,
  type ItemFacts,
  type ItemState,
  itemDecider,
  itemStreamId,
  mergeSnapshot,
  participantsOf,
  plusOnesIn,
  peopleIn,
  contributionsIn,
  countsPlusOne,
} from '../../../commands/item/index.js';
import { DomainError } from '../../../commands/shared/errors.js';
import { itemDocId, itemsOf, itemsProjector } from '../../../projections/items/index.js';
import { peopleProjector, personItemsOf } from '../../../projections/people/projector.js';
import type { RecordedEvent } from '../../../src/eventstore/types.js';
import { createMemoryReadStore } from '../../../src/readstore/embedded/memory.js';
import { project } from '../harness.js';

const WS = 'w1';
const KEYS = ['ACME-1', 'ACME-2', 'ACME-3'] as const;
const PEOPLE = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];

type Op =
  | { op: 'plusOne'; item: number; person: number }
  | { op: 'withdraw'; item: number; person: number }
  | { op: 'reply'; item: number; person: number }
  | { op: 'merge'; item: number }
  | { op: 'unmerge'; item: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('plusOne' as const), item: fc.nat(2), person: fc.nat(5) }),
  fc.record({ op: fc.constant('withdraw' as const), item: fc.nat(2), person: fc.nat(5) }),
  fc.record({ op: fc.constant('reply' as const), item: fc.nat(2), person: fc.nat(5) }),
  fc.record({ op: fc.constant('merge' as const), item: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ op: fc.constant('unmerge' as const), item: fc.integer({ min: 1, max: 2 }) }),
);

function simulate(ops: readonly Op[]) {
  const states = new Map<string, ItemState>();
  const log: RecordedEvent[] = [];
  let position = 0n;
  const run = (key: string, command: ItemCommand): ItemEvent[] => {
    const state = states.get(key) ?? itemDecider.initialState();
    const events = itemDecider.decide(command, state);
    states.set(key, events.reduce(itemDecider.evolve, state));
    for (const event of events) {
      position += 1n;
      const streamId = itemStreamId(WS, key);
      const revision = log.filter((e) => e.streamId === streamId).length;
      log.push({
        id: `e${position}`,
        ...event,
        metadata: {
          actor: 'u1',
          occurredAt: 1_000 + Number(position),
          correlationId: 'c',
          causationId: null,
        },
        streamId,
        revision,
        position,
      } as RecordedEvent);
    }
    return events;
  };
  const facts = (key: string) => states.get(key) as ItemFacts & ItemState;
  for (const [n, key] of KEYS.entries()) {
    run(key, {
      type: 'CaptureItem',
      data: {
        workspaceId: WS,
        productKey: 'ACME',
        number: n + 1,
        body: `item ${n}`,
        author: { personId: PEOPLE[n]!, tier: 'email', displayName: null, avatar: null },
      },
    });
  }
  for (const step of ops) {
    const key = KEYS[step.item]!;
    try {
      switch (step.op) {
        case 'plusOne': {
          const personId = PEOPLE[step.person]!;
          const target = facts(key);
          if (target.status === 'merged') {
            if (target.submitterId === personId || countsPlusOne(target.roster, personId)) break;
            run(target.survivorKey, { type: 'AddPlusOne', data: { personId, addressedTo: key } });
          } else run(key, { type: 'AddPlusOne', data: { personId } });
          break;
        }
        case 'withdraw': {
          // as withdrawPlusOne does: on a merged item, from its survivor, addressed to it
          const personId = PEOPLE[step.person]!;
          const target = facts(key);
          if (target.status === 'merged') {
            if (target.submitterId === personId || countsPlusOne(target.roster, personId)) break;
            run(target.survivorKey, {
              type: 'WithdrawPlusOne',
              data: { personId, addressedTo: key },
            });
          } else run(key, { type: 'WithdrawPlusOne', data: { personId } });
          break;
        }
        case 'reply':
          run(key, {
            type: 'ReplyToItem',
            data: {
              replyId: `r${log.length}`,
              parentId: null,
              authorKind: 'person',
              authorId: PEOPLE[step.person]!,
              authorName: null,
              authorAvatar: null,
              body: 'hi',
            },
          });
          break;
        case 'merge':
          run(key, { type: 'MarkMergedInto', data: { survivorKey: 'ACME-1' } });
          run('ACME-1', { type: 'RecordMerge', data: { merged: [mergeSnapshot(facts(key))] } });
          break;
        case 'unmerge': {
          run('ACME-1', { type: 'RecordUnmerge', data: { itemKeys: [key] } });
          const survivor = facts('ACME-1');
          run(key, {
            type: 'MarkUnmerged',
            data: { survivorKey: 'ACME-1', plusOnes: survivor.unmerges[key]!.returnedPlusOnes },
          });
          break;
        }
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return { log, facts };
}

describe('When any mix of +1s given and withdrawn, replies, merges and unmerges happens', () => {
  it('the read models list exactly the people the item state derives', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 30 }), async (ops) => {
        const { log, facts } = simulate(ops);
        const store = createMemoryReadStore();
        await project(itemsProjector(), store, log);
        await project(peopleProjector(), store, log);
        for (const key of KEYS) {
          const state = facts(key);
          const doc = await itemsOf(store).findOne({ _id: itemDocId(WS, key) });
          expect(doc!._participants, `${key} participants`).to.deep.equal(
            participantsOf(contributionsIn(state.roster)),
          );
          expect(doc!._plusOnes, `${key} +1s`).to.deep.equal(plusOnesIn(state.roster));
          expect(doc!.plusOneCount).to.equal(plusOnesIn(state.roster).length);
          const rows = await personItemsOf(store).find({ itemId: key });
          const roles = Object.fromEntries(rows.map((r) => [r.personId, r.role]));
          expect(roles, `${key} person roles`).to.deep.equal(peopleIn(state.roster));
        }
      }),
      {
        numRuns: 300,
        // a person the merge brought who then replied directly keeps a new role after the unmerge
        examples: [
          [
            [
              { op: 'merge', item: 1 },
              { op: 'reply', item: 0, person: 1 },
              { op: 'plusOne', item: 1, person: 4 },
              { op: 'unmerge', item: 1 },
            ],
          ],
          // p2's +1 then reply, the +1 withdrawn: p2 stays as a replier, between p3 and p4
          [
            [
              { op: 'plusOne', item: 0, person: 1 },
              { op: 'reply', item: 0, person: 2 },
              { op: 'reply', item: 0, person: 1 },
              { op: 'reply', item: 0, person: 3 },
              { op: 'withdraw', item: 0, person: 1 },
            ],
          ],
          // p5's own +1 withdrawn; the one p5 gave on the merged item (after p6's) still counts
          [
            [
              { op: 'merge', item: 1 },
              { op: 'plusOne', item: 0, person: 4 },
              { op: 'plusOne', item: 0, person: 5 },
              { op: 'plusOne', item: 1, person: 4 },
              { op: 'plusOne', item: 0, person: 3 },
              { op: 'withdraw', item: 0, person: 4 },
            ],
          ],
          // a +1 on the merged item withdrawn, then the unmerge
          [
            [
              { op: 'merge', item: 1 },
              { op: 'plusOne', item: 1, person: 4 },
              { op: 'withdraw', item: 1, person: 4 },
              { op: 'unmerge', item: 1 },
            ],
          ],
        ],
      },
    );
  });
});
