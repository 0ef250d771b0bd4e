import { expect } from 'chai';
import {
  isTokenUsable,
  tokenByHash,
  tokensOfOwner,
  tokensProjector,
} from '../../../projections/tokens/index.js';
import { userByEmail, usersProjector } from '../../../projections/users/index.js';
import {
  membershipBySlug,
  membershipsOfUser,
  workspacesProjector,
} from '../../../projections/workspaces/index.js';
import { EventLog, project, snapshot, withReadStore } from '../harness.js';

function accountsLog(): EventLog {
  const log = new EventLog();
  log.add('user-u1', {
    type: 'UserCreated',
    data: { userId: 'u1', email: 'ada@x.io', displayName: 'Ada' },
  });
  log.add('workspace-w1', {
    type: 'WorkspaceCreated',
    data: { workspaceId: 'w1', name: 'Acme', slug: 'acme-co' },
  });
  log.add('workspace-w1', { type: 'MemberAdded', data: { userId: 'u1', role: 'admin' } });
  log.add('workspace-w1', { type: 'MemberAdded', data: { userId: 'u2', role: 'member' } });
  log.add('workspace-w1', { type: 'MemberRoleChanged', data: { userId: 'u2', role: 'admin' } });
  log.add('workspace-w1', { type: 'MemberAdded', data: { userId: 'u3', role: 'member' } });
  log.add('workspace-w1', { type: 'MemberRemoved', data: { userId: 'u3' } });
  const data = { tokenId: 't1', ownerId: 'u1', name: 'laptop', hash: 'h1', expiresAt: 9_000 };
  log.add('token-t1', { type: 'TokenCreated', data });
  log.add('token-t2', {
    type: 'TokenCreated',
    data: { ...data, tokenId: 't2', hash: 'h2', expiresAt: null },
  });
  log.add('token-t2', { type: 'TokenRevoked', data: {} });
  return log;
}
const projectors = [usersProjector(), workspacesProjector(), tokensProjector()];

describe('When account events are projected', () => {
  it('answers live membership by slug; a removed member and a stranger get nothing', async () => {
    await withReadStore(async (store) => {
      for (const p of projectors) await project(p, store, accountsLog().events);
      const u2 = await membershipBySlug(store, { slug: 'acme-co', userId: 'u2' });
      expect(u2!.role).to.equal('admin');
      expect(u2!.workspace.workspaceId).to.equal('w1');
      expect(await membershipBySlug(store, { slug: 'acme-co', userId: 'u3' })).to.equal(null);
      expect(await membershipBySlug(store, { slug: 'nope-co', userId: 'u1' })).to.equal(null);
      expect((await membershipsOfUser(store, 'u1')).map((m) => m.slug)).to.deep.equal(['acme-co']);
      expect((await userByEmail(store, ' ADA@x.io'))!.displayName).to.equal('Ada');
    });
  });

  it('finds tokens by hash and knows revoked and expired ones are unusable', async () => {
    // spec: "Revocation takes effect at once"; "An expired token stops working at its expiry."
    await withReadStore(async (store) => {
      for (const p of projectors) await project(p, store, accountsLog().events);
      const t1 = await tokenByHash(store, 'h1');
      expect(isTokenUsable(t1!, 8_999)).to.equal(true);
      expect(isTokenUsable(t1!, 9_000)).to.equal(false);
      expect(isTokenUsable((await tokenByHash(store, 'h2'))!, 0)).to.equal(false);
      const listed = await tokensOfOwner(store, 'u1');
      expect(listed.map((t) => [t.tokenId, t.revoked])).to.deep.equal([
        ['t1', false],
        ['t2', true],
      ]);
      expect(listed[0]).to.not.have.property('hash');
    });
  });

  it('runs twice and changes nothing', async () => {
    await withReadStore(async (store) => {
      const log = accountsLog();
      for (const p of projectors) await project(p, store, log.events);
      const before = await Promise.all(projectors.map((p) => snapshot(p, store)));
      for (const p of projectors) await project(p, store, log.events);
      expect(await Promise.all(projectors.map((p) => snapshot(p, store)))).to.deep.equal(before);
    });
  });
});
