import { expect } from 'chai';
import { ConfigError, configTable, loadConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';

describe('Configuration', () => {
  describe('When nothing is configured', () => {
    it('selects the embedded default in ./data', () => {
      const config = loadConfig({});
      expect(config.DATA_DIR).to.equal('./data');
      expect(config.EVENTSTORE_URL).to.equal(undefined);
      expect(config.MONGODB_URL).to.equal(undefined);
      expect(config.TRUST_PROXY).to.equal(false);
    });
  });

  describe('When values are bad', () => {
    it('refuses to start and names every bad key', () => {
      expect(() =>
        loadConfig({ FEEDBACK_PORT: 'abc', EVENTSTORE_URL: 'http://x', TRUST_PROXY: 'maybe' }),
      )
        .to.throw(ConfigError)
        .with.property('message')
        .that.matches(/FEEDBACK_PORT/)
        .and.matches(/EVENTSTORE_URL/)
        .and.matches(/TRUST_PROXY/);
    });

    it('rejects an upstream identity provider without its client id', () => {
      expect(() => loadConfig({ UPSTREAM_OIDC_ISSUER: 'https://accounts.example' })).to.throw(
        ConfigError,
        /UPSTREAM_OIDC_CLIENT_ID/,
      );
    });

    it('rejects a malformed list of trusted ID-token issuers', () => {
      expect(() => loadConfig({ TRUSTED_ID_TOKEN_ISSUERS: '[{"issuer":1}]' })).to.throw(
        ConfigError,
        /TRUSTED_ID_TOKEN_ISSUERS/,
      );
    });
  });

  describe('When the table of keys is printed', () => {
    it('has one documented line per key', () => {
      const keys = Object.keys(configSchema.shape);
      const table = configTable();
      for (const key of keys)
        expect(table).to.match(new RegExp(`\\| \`${key}\` \\|[^\\n]*\\| [a-zA-Z]`));
      expect(table.split('\n')).to.have.length(keys.length + 2);
    });
  });
});
