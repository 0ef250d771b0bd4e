/**
 * Which credential and membership events the read models lack concern one caller
 * (src/feedback/auth/pending-credentials.ts). README (Security, Revocation): a request waits for
 * its own credential's creation or revocation, its account and its own memberships, and for
 * nothing else; a revocation of its own token or integration credential refuses it at once.
 */
import { expect } from 'chai';
import type { RecordedEvent } from '../../../src/eventstore/types.js';
import { Unauthenticated } from '../../../src/auth/index.js';
import { hashIntegrationCredential } from '../../../src/feedback/actions/integrations.js';
import { hashToken } from '../../../src/feedback/actions/tokens.js';
import { pendingForCaller } from '../../../src/feedback/auth/pending-credentials.js';
import type { Caller } from '../../../src/feedback/http/types.js';

let position = 0n;
const event = (streamId: string, type: string, data: unknown = {}): RecordedEvent => {
  position += 1n;
  const metadata = { actor: null, occurredAt: 1, correlationId: 'c', causationId: null };
  return { id: `e${position}`, streamId, type, data, metadata, revision: 0, position };
};
const pat: Caller = {
  userId: 'u1',
  credential: 'pat',
  via: 'pat:cli',
  credentialId: 't1',
  scopes: [],
};
const PAT = 'rft_service_mine';
const INTEGRATION = 'rfi_mine';

describe('Pending credential events a caller waits for', () => {
  it("waits for nobody else's token, account or membership", () => {
    const events = [
      event('token-t9', 'TokenCreated', { tokenId: 't9', ownerId: 'u2', hash: 'other' }),
      event('token-t9', 'TokenRevoked'),
      event('user-u2', 'UserCreated', { userId: 'u2' }),
      event('workspace-w2', 'MemberAdded', { userId: 'u2', role: 'admin' }),
    ];
    expect(pendingForCaller(events, PAT, { caller: pat })).to.deep.equal({ position: 0n });
  });

  it('refuses its own token or integration credential at once once revoked', () => {
    const revoked = pendingForCaller([event('token-t1', 'TokenRevoked')], PAT, { caller: pat });
    expect('refused' in revoked && revoked.refused.message).to.equal('API token revoked');
    // one the read models do not know yet: found by its value's hash
    const integration = [
      event('integration-i1', 'IntegrationCreated', {
        integrationId: 'i1',
        hash: hashIntegrationCredential(INTEGRATION),
      }),
      event('integration-i1', 'IntegrationRevoked'),
    ];
    const refused = new Unauthenticated('unknown integration credential');
    const answer = pendingForCaller(integration, INTEGRATION, { refused });
    expect('refused' in answer && answer.refused.message).to.equal(
      'integration credential revoked',
    );
  });

  it('waits for its own new token, and for its own membership changes', () => {
    const created = event('token-t2', 'TokenCreated', { tokenId: 't2', hash: hashToken(PAT) });
    const refused = new Unauthenticated('unknown API token');
    expect(pendingForCaller([created], PAT, { refused })).to.deep.equal({
      position: created.position,
    });
    const removed = event('workspace-w1', 'MemberRemoved', { userId: 'u1' });
    const other = event('workspace-w1', 'MemberAdded', { userId: 'u3', role: 'member' });
    expect(pendingForCaller([removed, other], PAT, { caller: pat })).to.deep.equal({
      position: removed.position,
    });
  });

  it('waits, for a refused ID token, for the accounts the read models lack', () => {
    const account = event('user-u4', 'UserCreated', { userId: 'u4', email: 'a@example.com' });
    const refused = new Unauthenticated('no maker account matches this ID token');
    expect(pendingForCaller([account], 'eyJ.id.token', { refused })).to.deep.equal({
      position: account.position,
    });
    // a refused personal token is no account's
    expect(pendingForCaller([account], PAT, { refused })).to.deep.equal({ position: 0n });
  });
});
