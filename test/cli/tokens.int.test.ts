import { expect } from 'chai';
import { tokenByHash, isTokenUsable } from '../../projections/tokens/queries.js';
import { hashToken } from '../../src/feedback/actions/index.js';
import { cliFails, cliOk, removeDir, seedBoard, tempDataDir, withStores } from './support.js';

describe('When an operator creates and revokes personal API tokens with the CLI', function () {
  this.timeout(120_000);
  let dir: string;
  let token: string;
  before(async () => {
    dir = tempDataDir();
    await seedBoard(dir);
  });
  after(() => removeDir(dir));

  it('prints the value once and only its hash is stored, usable until its expiry', async () => {
    const out = await cliOk(
      dir,
      'create-token',
      '--email',
      'max@acme.io',
      '--name',
      'laptop',
      '--expires',
      '2099-01-01',
    );
    // spec: personal tokens are prefixed rft_service_; the value is shown once
    const values = out.match(/rft_service_[A-Za-z0-9_-]+/g) ?? [];
    expect(values).to.have.length(1);
    token = values[0]!;
    expect(out).to.match(/expires 2099-01-01T00:00:00\.000Z/);
    await withStores(dir, async ({ readStore }) => {
      const stored = await tokenByHash(readStore, hashToken(token));
      expect(stored?.name).to.equal('laptop');
      expect(stored?.expiresAt).to.equal(Date.parse('2099-01-01'));
      expect(JSON.stringify(stored)).not.to.contain(token);
      expect(isTokenUsable(stored!, Date.now())).to.equal(true);
    });
  });

  it('revokes it by name, and a second revoke changes nothing', async () => {
    expect(await cliOk(dir, 'revoke-token', '--email', 'max@acme.io', '--name', 'laptop')).to.match(
      /^revoked token "laptop"/,
    );
    expect(await cliOk(dir, 'revoke-token', '--email', 'max@acme.io', '--name', 'laptop')).to.match(
      /already revoked; nothing changed/,
    );
    await withStores(dir, async ({ readStore }) => {
      const stored = await tokenByHash(readStore, hashToken(token));
      expect(stored?.revoked).to.equal(true);
      expect(isTokenUsable(stored!, Date.now())).to.equal(false);
    });
  });

  it('refuses a token for an account without a workspace, and an unknown token', async () => {
    // spec: "Only makers can create one; ... an account with no workspace is refused."
    expect(await cliFails(dir, 'create-token', '--email', 'solo@acme.io', '--name', 'x')).to.match(
      /only workspace members can create API tokens/,
    );
    expect(
      await cliFails(dir, 'revoke-token', '--email', 'max@acme.io', '--name', 'desktop'),
    ).to.equal('error: max@acme.io has no token named "desktop"');
  });
});
