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

  it('refuses an expiry time without its offset, and reads one with it', async () => {
    // README: "a bare date is midnight UTC; a time must say its offset". Without one, the
    // expiry was read in the server's time zone: 2027-01-01T00:00 meant 05:00Z in New York.
    const create = (expires: string) =>
      ['create-token', '--email', 'max@acme.io', '--name', 'offset', '--expires', expires] as const;
    expect(await cliFails(dir, ...create('2099-01-01T00:00'))).to.equal(
      "error: invalid --expires: a time needs its offset: Z for UTC or one like +01:00 (without, it would be read in this machine's time zone)",
    );
    expect(await cliOk(dir, ...create('2099-06-01T12:00+02:00'))).to.match(
      /expires 2099-06-01T10:00:00\.000Z/,
    );
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
