/**
 * A sign-in through an upstream provider creates the maker account with the provider's `name`
 * claim, which that provider's user chose freely. The account's display name follows the rule of
 * names shown in lists (no control characters, something visible, at most 200 characters), so a
 * hostile or odd claim is made into a valid name instead of failing the sign-in.
 */
import { expect } from 'chai';
import { displayNameFrom, createAccountsPort } from '../../../src/feedback/accounts.js';
import { userByEmail } from '../../../projections/users/queries.js';
import { withWorld } from './harness.js';

describe('A maker account made at sign-in', () => {
  it('takes a valid display name from any profile name', () => {
    expect(displayNameFrom('ada@example.com', ' Ada\nLovelace\u0000 ')).to.equal('Ada Lovelace');
    expect(displayNameFrom('ada@example.com', '\u200b\t')).to.equal('ada');
    expect(displayNameFrom('ada@example.com', null)).to.equal('ada');
    // cut at 200 characters between code points: no half of an emoji is left at the end
    const cut = displayNameFrom('ada@example.com', `${'a'.repeat(199)}😀😀`);
    expect(Array.from(cut)).to.have.length(200);
    expect(cut.endsWith('😀')).to.equal(true);
  });

  it('signs in with a name claim holding line breaks and NUL', async () => {
    await withWorld(async (world) => {
      const accounts = createAccountsPort({
        commandHandler: world.handler,
        readStore: world.readStore,
        waitFor: (position) => world.caughtUp(position),
        now: () => Date.now(),
      });
      const account = await accounts.findOrCreateByEmail(
        'Mal@Example.com',
        { displayName: 'Mal\r\nBcc: x@evil.test\u0000' },
        { correlationId: 'sign-in-1' },
      );
      const user = await userByEmail(world.readStore, 'mal@example.com');
      expect(user?.userId).to.equal(account.id);
      expect(user?.displayName).to.equal('Mal Bcc: x@evil.test');
    });
  });
});
