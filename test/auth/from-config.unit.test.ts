import { expect } from 'chai';
import { smtpFrom, upstreamFrom } from '../../src/auth/from-config.js';
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
