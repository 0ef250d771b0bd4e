/**
 * README (How a request is served): "If the read models do not catch up within
 * `PROJECTION_WAIT_MS` the write is kept and the answer is `503` with `Retry-After`"; (Logs,
 * metrics) "Each wait for the read models that runs out … logs one warning `read models did not
 * catch up within PROJECTION_WAIT_MS` with the `position` waited for, `waitedMs` and
 * `projectors`: each projector behind that position with its checkpoint". The audit found the
 * 503 logged nothing naming the stuck projector. "While they stay behind, one such warning per
 * 10 s at most, its `moreTimeouts` counting the waits that ran out since the one before (every
 * one of them is in the `read_your_writes_timeouts_total` metric)." The projector is stalled with
 * the gate of test/platform/projector-lag.e2e.test.ts.
 */
import { expect } from 'chai';
import * as actions from '../../src/feedback/actions/index.js';
import { createFeedbackService } from '../../src/feedback/service.js';
import { gatedProjector, withProjector } from '../support/gated-projector.js';
import { type LogLines, logLines } from '../support/log-lines.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

describe('When a write answers 503 because a projector stalls (e2e)', function () {
  this.timeout(60_000);
  // every item event stops the engine at this projector until released
  const gate = gatedProjector('stallprobe', 'item-');
  let t: TestRuntime;
  let log: LogLines;
  let token: string;

  before(async () => {
    log = logLines('info');
    t = await startTestRuntime(
      [withProjector(createFeedbackService(), gate.projector)],
      { PROJECTION_WAIT_MS: '300', LOG_LEVEL: 'info' },
      log.logger,
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
      slug: 'stall-team',
      name: 'Stall',
      ownerId: userId,
    });
    await actions.createProduct(deps, context, {
      workspaceId,
      key: 'STL',
      name: 'Stall',
      visibility: 'public',
    });
    ({ token } = await actions.createToken(deps, context, { ownerId: userId, name: 'cli' }));
    await runtime.context.waitFor(await runtime.stores.eventStore.headPosition());
  });
  after(async () => {
    gate.release();
    await t?.stop();
  });

  it('logs a warning naming the projector behind the write, with its checkpoint and the position', async () => {
    const before = await t.runtime.stores.eventStore.headPosition();
    const res = await fetch(`${t.url('feedback')}/v1/public/stall-team/STL/feedback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'Answered before its read models' }),
    });
    expect(res.status).to.equal(503);
    const position = await t.runtime.stores.eventStore.headPosition();
    const warning = await log.find(
      (l) => l.msg === 'read models did not catch up within PROJECTION_WAIT_MS',
    );
    expect(warning, 'no warning').to.include({ level: 'warn', position: String(position) });
    expect(warning!.waitedMs).to.be.at.least(300);
    // the gate holds the write's item event: every projector before it in the loop applied it,
    // the stalled one is behind, at an event of the write before it (or the log before the write)
    const behind = warning!.projectors as { name: string; checkpoint: string }[];
    expect(behind.map((p) => p.name)).to.deep.equal(['stallprobe']);
    const checkpoint = BigInt(behind[0]!.checkpoint);
    expect(checkpoint >= before && checkpoint < position, String(checkpoint)).to.equal(true);
    expect(warning!.moreTimeouts).to.equal(0);
  });

  it('does not log a warning per request while the projector stays stuck; the metric counts each', async () => {
    const timeouts = async () => {
      const text = await (await fetch(`${t.url('feedback')}/metrics`)).text();
      return Number(/^read_your_writes_timeouts_total (\d+)/m.exec(text)?.[1]);
    };
    const counted = await timeouts();
    for (const body of ['A second write behind the stall', 'A third one']) {
      const res = await fetch(`${t.url('feedback')}/v1/public/stall-team/STL/feedback`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body }),
      });
      expect(res.status).to.equal(503);
    }
    // at least: the webhook worker in this process may be waiting for the read models as well
    expect(await timeouts()).to.be.at.least(counted + 2);
    const warnings = log.lines.filter(
      (l) => l.msg === 'read models did not catch up within PROJECTION_WAIT_MS',
    );
    expect(warnings, 'one warning per 10 s, not one per request').to.have.length(1);
  });
});
