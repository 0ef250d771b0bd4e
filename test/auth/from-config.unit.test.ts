import { expect } from 'chai';
import { signInLimitsFrom, smtpFrom, upstreamFrom } from '../../src/auth/from-config.js';
import { DEFAULT_SIGN_IN_LIMITS } from '../../src/auth/options.js';
import { loadConfig } from '../../src/config/load.js';

describe('Auth options from configuration', () => {
  describe('When SMTP_URL is set', () => {
    it('takes host, default port by scheme and URL-encoded credentials from it', () => {
      const config = loadConfig({
        SMTP_URL: 'smtps://mail%40acme.io:p%40ss@smtp.acme.io',
        MAIL_FROM: 'no-reply@acme.io',
      });
      expect(smtpFrom(config)).to.deep.equal({
        host: 'smtp.acme.io',
        port: 465,
        secure: true,
        user: 'mail@acme.io',
        pass: 'p@ss',
        from: 'no-reply@acme.io',
      });
      expect(smtpFrom(loadConfig({ SMTP_URL: 'smtp://relay:2525' }))).to.include({
        port: 2525,
        secure: false,
      });
    });
    it('uses the dev mailbox (no SMTP options) when it is not set', () => {
      expect(smtpFrom(loadConfig({}))).to.equal(undefined);
    });
  });

  describe('When the sign-in throttles are left at their defaults', () => {
    // the throttle tests (sign-in-throttle*.int.test.ts) drive DEFAULT_SIGN_IN_LIMITS; the
    // services build theirs from SIGNIN_*: README's table (5 and 20 codes per 15 min, 10 and 30
    // wrong codes per hour, a lockout of 15 min doubling up to 24 h, forgotten after 24 h)
    it('gives the services the figures the throttle tests hold them to', () => {
      expect(signInLimitsFrom(loadConfig({}))).to.deep.equal(DEFAULT_SIGN_IN_LIMITS);
    });
  });

  describe('When an upstream identity provider is configured', () => {
    it('names it on the sign-in button and passes its client', () => {
      const google = upstreamFrom(
        loadConfig({
          UPSTREAM_OIDC_ISSUER: 'https://accounts.google.com',
          UPSTREAM_OIDC_CLIENT_ID: 'cid',
        }),
      );
      expect(google).to.deep.equal({
        name: 'Google',
        issuer: 'https://accounts.google.com',
        clientId: 'cid',
        allowInsecure: false,
      });
      expect(upstreamFrom(loadConfig({}))).to.equal(undefined);
    });
  });
});
