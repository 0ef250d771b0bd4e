/**
 * The board's product look-up is shared by all tenants (h142 item 1): "a busy tenant's views
 * push another board's pages out". Rules (product-lookup.ts): addresses no public product has are
 * remembered apart from real boards, so any number of made-up addresses never evicts a board's
 * product; and real boards are remembered per workspace (a tenth of the bound each), so a
 * workspace with many public products never evicts another's, and holds no more than its share.
 */
import { expect } from 'chai';
import { createProductLookup } from '../../../src/feedback/board/product-lookup.js';
import { nothingPending } from '../../../src/platform/catch-up.js';
import { interceptIn } from '../../support/intercepted-store.js';
import { projectedBoards } from './projected-boards.js';

/** acme-co/APP, and a count of the store reads the look-up makes */
async function boards() {
  const boards = projectedBoards();
  await boards.board('w1', 'acme-co', ['APP']);
  const counted = { reads: 0 };
  interceptIn(boards.store, ['products', 'workspaces'], async (_collection, method, proceed) => {
    if (method === 'findOne') counted.reads++;
    return proceed();
  });
  return { ...boards, counted };
}

describe('The board’s product look-up, asked for many made-up addresses', () => {
  it('still answers a real board from memory', async () => {
    const { store, versions, counted } = await boards();
    const lookup = createProductLookup(store, { pending: nothingPending, versions }, 8);
    expect((await lookup('acme-co', 'APP')).product?.name).to.equal('Product APP');
    for (let i = 0; i < 50; i++) await lookup(`nobody-${i}`, 'APP');
    for (let i = 0; i < 50; i++) await lookup('acme-co', `NO${i}`);
    counted.reads = 0;
    expect((await lookup('acme-co', 'APP')).product?.name).to.equal('Product APP');
    expect(counted.reads, 'store reads for the real board after the made-up addresses').to.equal(0);
  });
});

describe('The board’s product look-up, when one workspace has many public boards', () => {
  it('keeps another workspace’s board in memory however many of them are viewed', async () => {
    const { store, versions, board, counted } = await boards();
    const keys = Array.from(
      { length: 30 },
      (_, i) => `B${String.fromCharCode(65 + i / 26, 65 + (i % 26))}`,
    );
    await board('w2', 'busy-co', keys);
    const lookup = createProductLookup(store, { pending: nothingPending, versions }, 20);
    expect((await lookup('acme-co', 'APP')).product?.name).to.equal('Product APP');
    for (const key of keys) expect((await lookup('busy-co', key)).product).to.not.equal(null);
    counted.reads = 0;
    expect((await lookup('acme-co', 'APP')).product?.name).to.equal('Product APP');
    expect(counted.reads, 'store reads for acme-co after busy-co’s 30 boards').to.equal(0);
  });
});

describe('The board’s product look-up, for one workspace past its share', () => {
  it('keeps at most a tenth of the bound for it, though the whole has room', async () => {
    const { store, versions, board, counted } = await boards();
    await board('w2', 'busy-co', ['BAA', 'BAB', 'BAC']);
    // a bound of 20: busy-co's share is 2, and acme-co's board and busy-co's 3 leave room
    const lookup = createProductLookup(store, { pending: nothingPending, versions }, 20);
    expect((await lookup('acme-co', 'APP')).product?.name).to.equal('Product APP');
    for (const key of ['BAA', 'BAB', 'BAC']) await lookup('busy-co', key);
    counted.reads = 0;
    expect((await lookup('busy-co', 'BAC')).product?.name).to.equal('Product BAC');
    expect(counted.reads, 'busy-co’s last board is held').to.equal(0);
    expect((await lookup('busy-co', 'BAA')).product?.name).to.equal('Product BAA');
    expect(counted.reads, 'busy-co’s first board, past its share of 2, was dropped').to.be.above(0);
  });
});
