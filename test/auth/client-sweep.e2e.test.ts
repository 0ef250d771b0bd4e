/**
 * "Expired clients are swept only at the next registration": a service nobody registered with
 * for a while kept every abandoned client in its store. Now the process that runs the workers
 * removes them on a timer (src/auth/storage/client-sweep.ts), a minute after they expired, with
 * no registration needed. Both services, booted as the runtime boots them.
 */
import path from 'node:path';
import { expect } from 'chai';
import { createFeedbackService } from '../../src/feedback/service.js';
import { notesService } from '../../src/notes/service.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';
import { steppableWallClock } from '../support/wall-clock.js';
import { type oidc, registerClient } from './support/client.js';
import { signInAndExchange } from './support/flow.js';
import { authorizeAnswer } from './support/refusals.js';

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** the sweep's period in these tests (a minute in production) */
const SWEEP_MS = 20;

describe('When registered clients expire in a running server', () => {
  let clock: ReturnType<typeof steppableWallClock>;
  let t: TestRuntime;
  before(async () => {
    clock = steppableWallClock();
    t = await startTestRuntime([
      createFeedbackService({ clientSweepEveryMs: SWEEP_MS }),
      notesService({ clientSweepEveryMs: SWEEP_MS }),
    ]);
  });
  after(async () => {
    await t.stop();
    clock.restore();
  });

  const idOf = (config: oidc.Configuration) => config.clientMetadata().client_id;
  const stored = (collection: string, id: string) =>
    t.runtime.stores.readStore.collection(collection).findOne({ _id: id });
  /** a few sweeps' time (real time: the sweep runs on a timer, not on the stepped clock) */
  const sweeps = () => new Promise((resolve) => setTimeout(resolve, 5 * SWEEP_MS));
  /** whether the record is gone within a second */
  async function removed(collection: string, id: string): Promise<boolean> {
    for (let waited = 0; waited < 1000; waited += SWEEP_MS) {
      if ((await stored(collection, id)) === null) return true;
      await new Promise((resolve) => setTimeout(resolve, SWEEP_MS));
    }
    return false;
  }

  it('removes a client nobody approved from the store once it expired, with no registration since', async () => {
    const feedback = idOf(await registerClient(t.url('feedback'), { name: 'Abandoned' }));
    const notes = idOf(
      await registerClient(t.url('notes'), { name: 'Abandoned', algorithm: 'oauth2' }),
    );
    // alive (24 hours, OAUTH_UNUSED_CLIENT_HOURS): the sweeps leave it
    clock.step(DAY_MS - 2 * MINUTE_MS);
    await sweeps();
    expect(await stored('feedback_oauth_Client', feedback)).to.not.equal(null);
    expect(await stored('notes_oauth_Client', notes)).to.not.equal(null);
    // refused as soon as it expires, removed a minute later (client-sweep.ts SWEEP_GRACE_MS)
    clock.step(4 * MINUTE_MS);
    expect(await authorizeAnswer(t.url('feedback'), feedback)).to.equal('invalid_client');
    expect(await removed('feedback_oauth_Client', feedback)).to.equal(true);
    expect(await removed('notes_oauth_Client', notes)).to.equal(true);
  });

  it('removes an approved notes client whose only artifact left is an expired access token', async () => {
    const base = t.url('notes');
    const config = await registerClient(base, { name: 'One-off import', algorithm: 'oauth2' });
    // without offline_access no refresh token: the grant (90 days) and a 30-day access token
    const mailboxPath = path.join(t.dir, 'dev-mailbox.jsonl');
    const { tokens } = await signInAndExchange({ base, mailboxPath }, config, {
      scope: 'notes',
      email: 'importer@example.com',
    });
    expect(tokens.refresh_token).to.equal(undefined);
    const notes = () =>
      fetch(`${base}/v1/notes`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect((await notes()).status).to.equal(200);
    // the token expired long ago, its grant too, and 30 days have passed since the grant ended
    clock.step(120 * DAY_MS + 2 * MINUTE_MS);
    expect((await notes()).status).to.equal(401);
    expect(await authorizeAnswer(base, idOf(config))).to.equal('invalid_client');
    expect(await removed('notes_oauth_Client', idOf(config))).to.equal(true);
  });
});
