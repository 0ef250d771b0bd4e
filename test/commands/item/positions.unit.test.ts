/**
 * roster.ts places a person among an item's people and +1s by counting the first contributions
 * before theirs (`countBelow`); positions.ts must count as a plain sorted list would, and leave
 * every set it handed out as it was.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import {
  countBelow,
  noPositions,
  type Positions,
  withoutPosition,
  withPosition,
} from '../../../commands/item/positions.js';

describe('When positions are added to and taken from a set', () => {
  it('counts those below any position as the plain list does, in every set handed out', () => {
    const change = fc.record({ add: fc.boolean(), at: fc.nat(5000), pick: fc.nat() });
    fc.assert(
      fc.property(
        fc.array(change, { maxLength: 200 }),
        fc.array(fc.nat(5100), { maxLength: 30 }),
        (changes, probes) => {
          const sets: Positions[] = [noPositions];
          const lists: number[][] = [[]];
          for (const { add, at, pick } of changes) {
            const list = lists.at(-1)!;
            const set = sets.at(-1)!;
            if (add && !list.includes(at)) {
              sets.push(withPosition(set, at));
              lists.push([...list, at]);
            } else if (!add && list.length > 0) {
              const gone = list[pick % list.length]!;
              sets.push(withoutPosition(set, gone));
              lists.push(list.filter((p) => p !== gone));
            }
          }
          for (const [i, set] of sets.entries()) {
            for (const at of [...probes, ...lists[i]!]) {
              const below = lists[i]!.filter((p) => p < at).length;
              expect(countBelow(set, at), `set ${i}, below ${at}`).to.equal(below);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
