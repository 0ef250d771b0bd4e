/**
 * A notes user's id is the `sub` of every access token, which each OAuth client the user signs in
 * to (a third-party app, an MCP client) can read. Derived as the plain hash of the address, it let
 * any of them confirm a guessed address offline; it is keyed under the deployment's secret
 * (README, Security: "seeing it does not confirm a guessed address"), and accounts opened before
 * keep their id, so their notes, tags and devices stay theirs.
 */
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { notesUserIdFor } from '../../../src/notes/accounts.js';
import { legacyDigest } from '../../../src/platform/id-keys.js';
import { type NotesE2e, startNotesE2e } from './support.js';

describe('Notes account ids (e2e)', function () {
  this.timeout(60_000);
  let e: NotesE2e;
  before(async () => {
    e = await startNotesE2e();
  });
  after(() => e.stop());

  const accountStreams = async () => {
    const all = await e.t.runtime.stores.eventStore.readAll({ maxCount: 10_000 });
    return all.map((event) => event.streamId).filter((id) => id.startsWith('notesaccount-'));
  };

  describe('When an address signs in for the first time', () => {
    it('gets a token whose sub is not the plain hash of its address', async () => {
      const { token } = await e.signIn('ada@example.com');
      const { sub } = decodeJwt(token);
      expect(sub).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(sub).not.to.equal(notesUserIdFor(legacyDigest, 'ada@example.com'));
      // the same address signs in to the same account, from another client too
      expect(decodeJwt((await e.signIn('ada@example.com')).token).sub).to.equal(sub);
    });
  });

  describe('When the address has an account opened before ids were keyed', () => {
    it('signs in to that account and opens no second one', async () => {
      const legacyId = notesUserIdFor(legacyDigest, 'old@example.com');
      await e.t.runtime.stores.eventStore.appendToStream(
        `notesaccount-${legacyId}`,
        [
          {
            type: 'NotesAccountOpened',
            data: { userId: legacyId, email: 'old@example.com' },
            metadata: {
              actor: legacyId,
              via: 'sign-in',
              occurredAt: 1,
              correlationId: 'old',
              causationId: null,
            },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
      const before = await accountStreams();
      const { token } = await e.signIn('old@example.com');
      expect(decodeJwt(token).sub).to.equal(legacyId);
      expect(await accountStreams()).to.deep.equal(before);
      // its notes are its own: written under the id, read back with the next token too
      const created = await e.api(token)('POST', '/v1/notes', { content: 'kept' });
      expect(created.status, created.text).to.equal(201);
      const again = await e.signIn('old@example.com', { scope: 'notes offline_access' });
      const listed = await e.api(again.token)('GET', '/v1/notes');
      expect(listed.body.notes.map((n: { id: string }) => n.id)).to.deep.equal([created.body.id]);
    });
  });
});
