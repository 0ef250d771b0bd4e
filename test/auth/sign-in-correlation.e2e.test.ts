/**
 * README (Logs, metrics, shutdown): "The correlation id is also stored in the metadata of every
 * event the request appends". A first sign-in opens the account with an event; it was written
 * under an id of its own, so the sign-in's access line led to no event. The correlation id is the
 * server's own; the client's (here the one the code is sent with) is kept as clientCorrelationId.
 */
import { expect } from 'chai';
import { notesService } from '../../src/notes/service.js';
import { startFeedback } from '../feedback/support/harness.js';
import { startTestRuntime } from '../support/runtime.js';
import type { TestRuntime } from '../support/runtime.js';
import { authorizeOverHttp } from './support/browserless.js';
import { registerClient, startAuthorization } from './support/client.js';

/** feedback serves OpenID Connect discovery, notes OAuth 2.0 metadata (spec) */
async function signInTraced(
  flavour: { base: string; algorithm: 'oidc' | 'oauth2'; scope: string },
  mailboxPath: string,
  id: string,
) {
  const { base, algorithm, scope } = flavour;
  const config = await registerClient(base, { algorithm });
  const pending = await startAuthorization(config, base, scope);
  await authorizeOverHttp({
    authUrl: pending.url,
    base,
    email: 'first-time@example.com',
    mailboxPath,
    codeHeaders: { 'x-correlation-id': id },
  });
}

const tracedTypes = async (t: TestRuntime, id: string) =>
  (await t.runtime.stores.eventStore.readAll())
    .filter((e) => e.metadata.clientCorrelationId === id && e.metadata.correlationId !== id)
    .map((e) => e.type);

describe('A first sign-in opens the account under the request’s correlation id (e2e)', function () {
  this.timeout(60_000);

  it('feedback: the UserCreated event carries the id the code was sent with', async () => {
    const h = await startFeedback();
    try {
      await signInTraced(
        { base: h.url, algorithm: 'oidc', scope: 'openid email' },
        h.mailboxPath,
        'sign-in-feedback-1',
      );
      expect(await tracedTypes(h.runtime, 'sign-in-feedback-1')).to.deep.equal(['UserCreated']);
    } finally {
      await h.stop();
    }
  });

  it('notes: the account-opened event carries the id the code was sent with', async () => {
    const t = await startTestRuntime([notesService()]);
    try {
      await signInTraced(
        { base: t.url('notes'), algorithm: 'oauth2', scope: 'notes' },
        `${t.dir}/dev-mailbox.jsonl`,
        'sign-in-notes-1',
      );
      expect(await tracedTypes(t, 'sign-in-notes-1')).to.deep.equal(['NotesAccountOpened']);
    } finally {
      await t.stop();
    }
  });
});
