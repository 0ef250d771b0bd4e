/**
 * A write whose read models do not catch up within PROJECTION_WAIT_MS is kept and answered 503
 * (README, How a request is served: "the write is kept and the answer is `503` with
 * `Retry-After` (a retry with the same `Idempotency-Key` returns the first result)"). An
 * assistant reads the error as its instructions: it said only "the read models did not reach
 * position … within … ms", and an assistant that called submit_feedback again made a second
 * item. The error now says the change was made, and what to do — with the call's
 * `_meta.idempotencyKey`, call again for its result; without one, read it after
 * `_meta.retryAfter` instead of calling again. The projector is stalled with the gate of
 * test/platform/read-your-writes-timeout.e2e.test.ts.
 */
import { expect } from 'chai';
import * as actions from '../../src/feedback/actions/index.js';
import { createFeedbackService } from '../../src/feedback/service.js';
import { gatedProjector, withProjector } from '../support/gated-projector.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';
import { callTool, type Connected, connectMcp, envelopeOf } from './support.js';

/** A feedback runtime whose item projector stalls at the first item event until `stop`. */
async function stalledBoard(): Promise<{ mcp: Connected; stop(): Promise<void> }> {
  const gate = gatedProjector('stallprobe', 'item-');
  const t: TestRuntime = await startTestRuntime(
    [withProjector(createFeedbackService(), gate.projector)],
    { PROJECTION_WAIT_MS: '300' },
  );
  const { runtime } = t;
  const deps = {
    commandHandler: runtime.context.commandHandler,
    readStore: runtime.stores.readStore,
  };
  const context = { actor: null, now: Date.now() };
  const { userId } = await actions.createUser(deps, context, {
    email: 'stall@example.com',
    displayName: 'Stall',
  });
  const { workspaceId } = await actions.createWorkspace(deps, context, {
    slug: args.slug,
    name: 'Stall',
    ownerId: userId,
  });
  await actions.createProduct(deps, context, {
    workspaceId,
    key: args.key,
    name: 'Stall',
    visibility: 'public',
  });
  const { token } = await actions.createToken(deps, context, { ownerId: userId, name: 'cli' });
  await runtime.context.waitFor(await runtime.stores.eventStore.headPosition());
  const mcp = await connectMcp(`${t.url('feedback')}/mcp`, { token });
  return {
    mcp,
    async stop() {
      gate.release();
      await mcp.close();
      await t.stop();
    },
  };
}

const args = { slug: 'stall-team', key: 'STL' };

describe('When an MCP write answers 503 because its read models lag (e2e)', function () {
  this.timeout(60_000);

  it('says the change was made and to read it rather than call again, without an idempotency key', async () => {
    const board = await stalledBoard();
    try {
      const result = await callTool(board.mcp, 'submit_feedback', { ...args, body: 'Made once' });
      expect(result._meta?.status, JSON.stringify(result)).to.equal(503);
      expect(result._meta?.retryAfter).to.be.a('number');
      const { error, code } = envelopeOf(result);
      expect(code).to.equal('resource-exhausted');
      expect(error)
        .to.match(/^the change was made, but cannot be answered yet \(the read models did not/)
        .and.to.include(
          'read it after the seconds of _meta.retryAfter instead of calling the tool again, which would make it a second time',
        );
    } finally {
      await board.stop();
    }
  });

  it('tells a call with an idempotency key to call again with it for its result', async () => {
    const board = await stalledBoard();
    try {
      const result = await callTool(
        board.mcp,
        'submit_feedback',
        { ...args, body: 'Made once, answered later' },
        { idempotencyKey: 'stall-1' },
      );
      expect(result._meta?.status, JSON.stringify(result)).to.equal(503);
      expect(envelopeOf(result).error).to.include(
        'call the tool again with the same _meta.idempotencyKey for its result',
      );
    } finally {
      await board.stop();
    }
  });
});
