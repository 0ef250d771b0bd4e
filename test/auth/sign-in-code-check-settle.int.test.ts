/**
 * A submitted code's place among the wrong codes is held before the comparison and settled after
 * it (throttle.ts `beforeCheck`). The settle is the store's last word on a request whose outcome
 * is already known: when the store fails it, a right code must still sign the person in and a
 * wrong one still shows its page, never a 500. A place left held "counts until it leaves the
 * window", as a wrong code's does: a store failing here costs the address one place at most.
 */
import { expect } from 'chai';
import { DEFAULT_SIGN_IN_LIMITS } from '../../src/auth/index.js';
import { LIMITS_COLLECTION } from '../../src/limits/index.js';
import { latestCode, request } from './support/browserless.js';
import { registerClient } from './support/client.js';
import { harnessWithInterceptedStore } from './support/held-harness.js';
import { askForCode, codeOutcome } from './support/sign-in.js';

const EMAIL = 'settle-fails@example.com';

describe('When the store fails as a compared code is counted', () => {
  let failing = false;
  const server = harnessWithInterceptedStore(
    'check-settle-fails-',
    (collection, method, proceed) => {
      // the code's attempt counted: what follows is the comparison, then the settle of its places
      if (collection.endsWith('_email_codes') && method === 'updateOne') failing = true;
      // its writes (the settle) and its reads (whether the address is now locked out)
      if (failing && collection === LIMITS_COLLECTION) throw new Error('store down while settling');
      return proceed();
    },
    { signInLimits: DEFAULT_SIGN_IN_LIMITS },
  );
  afterEach(() => {
    failing = false;
  });

  async function submit(code: (right: string) => string): Promise<string> {
    const { h } = server;
    const config = await registerClient(h.base);
    const { jar, codeForm } = await askForCode(h, config, EMAIL);
    expect(codeForm, 'the code form').to.not.equal(null);
    const right = latestCode(h.mailboxPath, EMAIL);
    return codeOutcome(
      await request(jar, codeForm!.action, { ...codeForm!.fields, code: code(right) }),
    );
  }

  it('signs the person in with the right code', async () => {
    expect(await submit((right) => right)).to.match(/^303 \/oauth\/authorize\//);
  });

  it('shows the wrong-code page for a wrong one', async () => {
    const wrong = (right: string) => (right === '000000' ? '111111' : '000000');
    expect(await submit(wrong)).to.equal('400 That code is not right. 4 attempt(s) left.');
  });
});
