/**
 * mergeChain (commands/item/merge-chain.ts): the one walk every follower of a merge takes
 * to the final survivor. Merges should never loop, so a chain that comes back on itself or runs
 * past MAX_MERGE_HOPS is refused with a clear failed-precondition instead of walked for ever.
 */
import { expect } from 'chai';
import { MAX_MERGE_HOPS, mergeChain } from '../../../commands/item/index.js';
import { mergedMessage } from '../../../src/feedback/actions/merge-chain.js';
import { FailedPrecondition } from '../../../commands/shared/errors.js';

const walk = (into: Record<string, string>) => async (key: string) => into[key] ?? null;

async function refusal(chain: Promise<unknown>): Promise<Error> {
  try {
    await chain;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the walk to be refused');
}

describe('mergeChain', () => {
  it('follows A → B → C to its end, and names C and what it went through', async () => {
    const chain = await mergeChain('A', walk({ A: 'B', B: 'C' }));
    expect(chain).to.deep.equal(['A', 'B', 'C']);
    expect(mergedMessage(chain)).to.equal('A was merged into C (through B)');
    expect(mergedMessage(chain.slice(1))).to.equal('B was merged into C');
    expect(await mergeChain('C', walk({ A: 'B', B: 'C' }))).to.deep.equal(['C']);
  });

  it('refuses a chain that comes back on itself', async () => {
    const error = await refusal(mergeChain('A', walk({ A: 'B', B: 'C', C: 'A' })));
    expect(error).to.be.instanceOf(FailedPrecondition);
    expect(error.message).to.equal(
      'the merges from A come back to A (A → B → C → A); unmerge one of them',
    );
  });

  it(`refuses a chain longer than ${MAX_MERGE_HOPS} merges, asking no more of the store`, async () => {
    let asked = 0;
    const error = await refusal(
      mergeChain('K0', async (key) => {
        asked++;
        return `K${Number(key.slice(1)) + 1}`;
      }),
    );
    expect(error).to.be.instanceOf(FailedPrecondition);
    expect(error.message).to.match(/^the merges from K0 run past 50 items \(K0 → K1/);
    expect(asked).to.equal(MAX_MERGE_HOPS + 1);
  });
});
