/**
 * The board's identity page compares codes through sign-in's throttle (src/auth/interaction/
 * throttle.ts `beforeCheck`): a submitted code's place among the wrong codes is held before the
 * comparison and settled after it. When the store fails that settle, the code's outcome is
 * already known: a right code must still confirm the visitor and a wrong one still shows its
 * page, never a 500 — "a place left held stays counted until it leaves the window", as a wrong
 * code's does. The auth server's twin: test/auth/sign-in-code-check-settle.int.test.ts.
 */
import { expect } from 'chai';
import { latestCode } from '../../auth/support/browserless.js';
import { LIMITS_COLLECTION } from '../../../src/limits/index.js';
import type { ReadStore } from '../../../src/readstore/types.js';
import { interceptIn } from '../../support/intercepted-store.js';
import { BoardVisitor, type BoardWorld, field, startBoardWorld } from './support.js';

const CODES = 'feedback_board_email_codes';
const EMAIL = 'settle-fails@customer.example';

/**
 * The edge: once a code's attempt is counted (its update in the codes' collection), every call
 * of the limits' collection fails — the settle's writes and the lockout's read — until reset.
 */
function failingLimits(store: ReadStore) {
  const state = { failing: false };
  interceptIn(store, [CODES, LIMITS_COLLECTION], (collection, method, proceed) => {
    if (collection === CODES && method === 'updateOne') state.failing = true;
    if (state.failing && collection === LIMITS_COLLECTION) {
      return Promise.reject(new Error('store down while settling'));
    }
    return proceed();
  });
  return state;
}

describe('When the store fails as a board visitor’s compared code is counted (e2e)', function () {
  this.timeout(60_000);
  let world: BoardWorld;
  let edge: { failing: boolean };
  let identity: string;
  before(async () => {
    world = await startBoardWorld();
    edge = failingLimits(world.fb.deps().readStore);
    identity = `${world.boardPath}/identity`;
  });
  after(() => world.fb.stop());
  afterEach(() => {
    edge.failing = false;
  });

  /** a new visitor asks for a code, then submits `code(right)` */
  async function submit(code: (right: string) => string) {
    const v = new BoardVisitor(world.fb.url);
    const start = await v.get(identity);
    await v.post(identity, { csrf: field(start.text, 'csrf'), email: EMAIL });
    const asked = await v.get(identity);
    const right = latestCode(world.fb.mailboxPath, EMAIL);
    return v.post(`${identity}/code`, { csrf: field(asked.text, 'csrf'), code: code(right) });
  }

  it('confirms the visitor with the right code', async () => {
    const answer = await submit((right) => right);
    expect(answer.status, answer.text.slice(0, 200)).to.equal(303);
    expect(edge.failing, 'the store failed the settle').to.equal(true);
  });

  it('shows the wrong-code page for a wrong one', async () => {
    const answer = await submit((right) => (right === '000000' ? '111111' : '000000'));
    expect(answer.status, answer.text.slice(0, 200)).to.equal(400);
    expect(answer.text).to.include('That code is not right; 4 tries left.');
  });
});
