/**
 * Issue 10 item 2: "the dev mailbox exists only in an explicit development mode ...; a service
 * listening on a non-loopback address without SMTP refuses to start with a one-line message
 * naming SMTP_URL".
 */
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { mailModeOf } from '../../src/config/mail-mode.js';

const mode = (env: Record<string, string>) => mailModeOf(loadConfig(env));

describe('When the services decide how to send sign-in codes', () => {
  it('uses SMTP whenever SMTP_URL is set, on any address and in any mode', () => {
    expect(mode({ SMTP_URL: 'smtp://relay:25', HOST: '0.0.0.0' })).to.equal('smtp');
    expect(mode({ SMTP_URL: 'smtp://relay:25', DEV_MODE: 'true' })).to.equal('smtp');
  });

  it('uses the dev mailbox only in explicit development mode on loopback', () => {
    expect(mode({ DEV_MODE: 'true' })).to.equal('dev-mailbox');
    expect(mode({ DEV_MODE: 'true', HOST: 'localhost' })).to.equal('dev-mailbox');
  });

  for (const [why, env, pattern] of [
    ['a non-loopback HOST', { HOST: '0.0.0.0', DEV_MODE: 'true' }, /HOST=0\.0\.0\.0/],
    [
      'a public base URL',
      { DEV_MODE: 'true', FEEDBACK_BASE_URL: 'https://fb.example.com' },
      /fb\.example\.com/,
    ],
    ['no development mode', {}, /DEV_MODE=true/],
  ] as const) {
    it(`refuses to start without SMTP_URL on ${why}, in one line naming SMTP_URL`, () => {
      let error: unknown;
      try {
        mode({ ...env });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).to.include('SMTP_URL').and.match(pattern);
      expect(message).not.to.include('\n');
    });
  }
});
