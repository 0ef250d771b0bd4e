/**
 * A notes access token revoked while its request is still on its way does not act. README
 * "Revocation": a write is authenticated again, live, just before it acts — on the notes service
 * as on the board. The request was authenticated when its headers arrived; the revocation lands
 * before its body is whole.
 */
import { expect } from 'chai';
import { oidc } from '../../auth/support/client.js';
import { slowPost } from '../../support/slow-body.js';
import { type NotesE2e, startNotesE2e } from './support.js';

describe('When a notes token is revoked while its write is still being sent (e2e)', function () {
  this.timeout(30_000);
  let e: NotesE2e;

  before(async () => {
    e = await startNotesE2e();
  });
  after(() => e.stop());

  const noteCount = async (email: string) => {
    const { token } = await e.signIn(email);
    const list = await e.api(token)('GET', '/v1/notes');
    expect(list.status, list.text).to.equal(200);
    return (list.body.notes as unknown[]).length;
  };

  it('answers 401 to an access token revoked at /oauth/revoke, and creates no note', async () => {
    const { config, token } = await e.signIn('ida@example.com', { scope: 'notes' });
    const body = JSON.stringify({ content: 'Sent by a token revoked meanwhile' });
    const res = await slowPost(
      `${e.base}/v1/notes`,
      { authorization: `Bearer ${token}` },
      body,
      () => oidc.tokenRevocation(config, token),
    );
    expect(res.status, res.text).to.equal(401);
    expect(await noteCount('ida@example.com'), 'no note was created').to.equal(0);
  });

  it("answers 401, not the body's 400, when the body it sent is invalid too", async () => {
    // the credential is checked again as soon as the body is whole, before it is validated: a
    // revoked token learns nothing of the operation's input rules
    const { config, token } = await e.signIn('bea@example.com', { scope: 'notes' });
    const res = await slowPost(
      `${e.base}/v1/notes`,
      { authorization: `Bearer ${token}` },
      JSON.stringify({ body: 'not a field of create_note' }),
      () => oidc.tokenRevocation(config, token),
    );
    expect(res.status, res.text).to.equal(401);
  });

  it('answers 401 when the grant ends meanwhile (its refresh token revoked)', async () => {
    const { config, tokens, token } = await e.signIn('max@example.com', {
      scope: 'notes offline_access',
    });
    const body = JSON.stringify({ content: 'Sent by a grant that ended meanwhile' });
    const res = await slowPost(
      `${e.base}/v1/notes`,
      { authorization: `Bearer ${token}` },
      body,
      () => oidc.tokenRevocation(config, tokens.refresh_token as string),
    );
    expect(res.status, res.text).to.equal(401);
    expect(await noteCount('max@example.com'), 'no note was created').to.equal(0);
  });
});
