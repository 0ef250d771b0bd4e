/**
 * Both services' authorization servers over one read store, as they run with MongoDB (one
 * database, MONGODB_DATABASE, for both) or one embedded data file: each keeps its own per-IP
 * registration count. Their limits differ (feedback 20 per 10 minutes, notes 30 per hour), so a
 * count shared between them would refuse one service's clients for the other's registrations.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { feedbackAuthPreset, notesAuthPreset } from '../../src/auth/index.js';
import { FEEDBACK_OAUTH_PREFIX } from '../../src/feedback/auth/settings.js';
import { NOTES_OAUTH_PREFIX } from '../../src/notes/auth.js';
import { openEmbeddedReadStore } from '../../src/readstore/embedded/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { type Harness, startHarness } from './support/harness.js';

const register = (base: string) =>
  fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Burst',
      redirect_uris: [`${base}/cb`],
      token_endpoint_auth_method: 'none',
    }),
  });

describe('When feedback and notes keep their OAuth records in one store', () => {
  let dir: string;
  let store: ReadStore;
  let feedback: Harness;
  let notes: Harness;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shared-auth-'));
    store = await openEmbeddedReadStore({ path: path.join(dir, 'data.sqlite') });
    // each harness closes its store when it stops; the shared one is closed here, once
    const shared = (): Promise<ReadStore> =>
      Promise.resolve(Object.assign(Object.create(store) as ReadStore, { close: async () => {} }));
    feedback = await startHarness({
      ...feedbackAuthPreset,
      collectionPrefix: FEEDBACK_OAUTH_PREFIX,
      openReadStore: shared,
    });
    notes = await startHarness({
      ...notesAuthPreset,
      collectionPrefix: NOTES_OAUTH_PREFIX,
      openReadStore: shared,
    });
  });
  after(async () => {
    await feedback.close();
    await notes.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // notes issue 6: "30 per IP per hour, then 429"; feedback spec: "Registration is rate-limited
  // per IP address" (20 per 10 minutes) — each service's own figure, for its own registrations
  it("counts one address's registrations per service: notes' thirty leave feedback's twenty untouched", async () => {
    const atNotes: number[] = [];
    for (let i = 0; i < 31; i++) atNotes.push((await register(notes.base)).status);
    expect(atNotes.slice(0, 30)).to.deep.equal(Array(30).fill(201));
    expect(atNotes[30]).to.equal(429);
    const atFeedback = await register(feedback.base);
    expect(atFeedback.status, await atFeedback.text()).to.equal(201);
  });
});
