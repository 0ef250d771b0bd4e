/**
 * README, Configuration: "checked at start: a bad value stops the process with one line on
 * stderr naming the key" and "`npm run cli -- config` prints this table".
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { z } from 'zod';
import { ConfigError, configTable, loadConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';

/** every key whose value is a number: ports, counts, windows, timeouts */
const INTEGER_KEYS = Object.entries(configSchema.parse({}))
  .filter(([, value]) => typeof value === 'number')
  .map(([key]) => key);

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

    it('says so in one line, each bad key once', () => {
      expect(() => loadConfig({ FEEDBACK_PORT: 'eighty', SMTP_URL: 'http://mail' }))
        .to.throw(ConfigError)
        .with.property('message')
        .that.equals(
          'invalid configuration: FEEDBACK_PORT: must be a whole number in decimal digits; ' +
            'SMTP_URL: must be an smtp:// or smtps:// URL (smtp://user:password@host:port)',
        );
    });

    it('refuses an SMTP_URL that is no URL at all, naming it', () => {
      expect(() => loadConfig({ SMTP_URL: 'smtp://u:p@[bad' })).to.throw(
        ConfigError,
        /^invalid configuration: SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
      );
      expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).SMTP_URL).to.equal(
        'smtps://u:p@mail.example.com:465',
      );
    });

    it('refuses a MAIL_FROM that is not one sender address, naming it', () => {
      // it becomes the From header of every sign-in mail: a typo would bounce every code
      for (const bad of ['no-reply', 'a@b, c@d', 'Board <a@b', 'a@b\r\nBcc: x@y', 'Board']) {
        expect(() => loadConfig({ MAIL_FROM: bad }), bad).to.throw(
          ConfigError,
          /^invalid configuration: MAIL_FROM: must be one sender address/,
        );
      }
      for (const good of ['no-reply@localhost', 'Feedback Board <board@example.com>']) {
        expect(loadConfig({ MAIL_FROM: good }).MAIL_FROM).to.equal(good);
      }
    });

    it('reads ports and other numbers only in plain decimal digits', () => {
      expect(INTEGER_KEYS).to.include.members([
        'FEEDBACK_PORT',
        'NOTES_PORT',
        'PROJECTION_WAIT_MS',
      ]);
      for (const key of INTEGER_KEYS) {
        for (const value of ['0x10', '1e3', ' 30', '30.0', '-1']) {
          expect(() => loadConfig({ [key]: value }), `${key}=${value}`).to.throw(
            ConfigError,
            new RegExp(`^invalid configuration: ${key}: must be a whole number in decimal digits$`),
          );
        }
      }
      expect(loadConfig({ FEEDBACK_PORT: '47400', NOTES_PORT: '0' })).to.include({
        FEEDBACK_PORT: 47400,
        NOTES_PORT: 0,
      });
    });

    it('refuses a base URL with a query or fragment, naming the key, instead of an assertion of the OAuth server', () => {
      // each base URL is an OAuth issuer (RFC 8414 §2: no query, no fragment) or the start of
      // the links the service writes (`<base>/v1/…`); `cannot start: AssertionError
      // [ERR_ASSERTION]: Issuer Identifier must not have a query component` named no key
      const keys = ['FEEDBACK_BASE_URL', 'NOTES_BASE_URL', 'NOTES_ALT_BASE_URL', 'PUBLIC_BASE_URL'];
      const clientId = (key: string) =>
        key === 'UPSTREAM_OIDC_ISSUER' ? { UPSTREAM_OIDC_CLIENT_ID: 'c' } : {};
      for (const key of [...keys, 'UPSTREAM_OIDC_ISSUER']) {
        for (const value of [
          'http://127.0.0.1:3000/?a=1',
          'https://b.example/#top',
          'https://b.example?',
        ]) {
          expect(() => loadConfig({ [key]: value, ...clientId(key) }), `${key}=${value}`).to.throw(
            ConfigError,
            new RegExp(
              `^invalid configuration: ${key}: must be an http:// or https:// URL without a query \\(\\?\\) or fragment \\(#\\)$`,
            ),
          );
        }
        expect(() => loadConfig({ [key]: 'ftp://b.example', ...clientId(key) })).to.throw(
          ConfigError,
          new RegExp(`^invalid configuration: ${key}: must be an http:// or https:// URL`),
        );
        const good = 'https://b.example/board';
        expect(loadConfig({ [key]: good, ...clientId(key) })[key as 'PUBLIC_BASE_URL']).to.equal(
          good,
        );
      }
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

  describe('When MCP_ALLOWED_ORIGINS is set', () => {
    it('reads a comma-separated list of origins', () => {
      const config = loadConfig({
        MCP_ALLOWED_ORIGINS: 'https://inspector.example, http://localhost:6274',
      });
      expect(config.MCP_ALLOWED_ORIGINS).to.deep.equal([
        'https://inspector.example',
        'http://localhost:6274',
      ]);
    });

    it('says what a good value is, in words, under the key an operator sets', () => {
      // README: "a bad value stops the process with one line on stderr naming the key" — the
      // key as set (not `MCP_ALLOWED_ORIGINS.1`), and no zod message quoting a TypeScript union
      const cases: [Record<string, string>, string][] = [
        [
          { MCP_ALLOWED_ORIGINS: 'https://a.example, https://b.example/app' },
          'MCP_ALLOWED_ORIGINS: each must be an origin: scheme://host[:port]',
        ],
        [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT: must be one of auto, json, pretty'],
        [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY: must be one of true, false, 1, 0, yes, no'],
        [{ FEEDBACK_PORT: '70000' }, 'FEEDBACK_PORT: must be from 0 to 65535'],
        [{ APP_SECRET: 'short' }, 'APP_SECRET: must be at least 32 characters'],
        [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN: must be at least 16 characters'],
      ];
      for (const [env, problem] of cases) {
        expect(() => loadConfig(env)).to.throw(ConfigError, `invalid configuration: ${problem}`);
      }
    });

    it('refuses an entry that is not an origin (a path, another scheme)', () => {
      for (const value of ['https://a.example/app', 'ftp://a.example', 'a.example']) {
        expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: value }), value).to.throw(
          ConfigError,
          /MCP_ALLOWED_ORIGINS/,
        );
      }
    });
  });

  describe('When the table of keys is printed', () => {
    it('has one documented line per key', () => {
      const keys = Object.keys(configSchema.shape);
      const table = configTable();
      for (const key of keys)
        expect(table).to.match(new RegExp(`\\| \`${key}\` \\|[^\\n]*\\| [a-zA-Z\`]`));
      expect(table.split('\n')).to.have.length(keys.length + 2);
    });

    it("states in each key's meaning every bound and form a value of it is refused for", () => {
      // "METRICS_TOKEN must be at least 16 characters and PROJECTION_WAIT_MS from 100 to 120000
      // (the start error says so, the table does not)": what a refusal says a value must be is
      // in the key's meaning, except the forms the README's prose states for every key of a kind
      const statedForAll = [
        'a whole number in decimal digits', // "Numbers are plain decimal digits"
        'one of true, false, 1, 0, yes, no', // "a switch is `true` or `false` …"
        'an http:// or https:// URL', // "the base URLs … are http(s) URLs without a query …"
        'an http:// or https:// URL without a query (?) or fragment (#)',
      ];
      const probes = ['x', '999999999999', 'http://a.example/b?c'];
      const unstated = new Set<string>();
      for (const [key, schema] of Object.entries(configSchema.shape)) {
        const meaning = ((schema as { description?: string }).description ?? '').replaceAll(
          '`',
          '',
        );
        for (const probe of probes) {
          const parsed = (schema as z.ZodType).safeParse(probe);
          if (parsed.success) continue;
          const rule = parsed.error.issues[0]!.message.replace(/^(each )?must be /, '');
          if (!statedForAll.includes(rule) && !meaning.includes(rule))
            unstated.add(`${key}: ${rule}`);
        }
      }
      expect([...unstated]).to.deep.equal([]);
      const prose = readFileSync('README.md', 'utf8')
        .split('\n## Configuration\n')[1]!
        .split('| key |')[0]!;
      for (const said of [
        'plain decimal digits',
        '`true` or `false`',
        'http(s) URLs without a query',
      ]) {
        expect(prose).to.contain(said);
      }
    });

    it('is the table of the README, word for word', () => {
      const readme = readFileSync('README.md', 'utf8');
      const section = readme.slice(readme.indexOf('\n## Configuration\n'));
      const start = section.indexOf('| key | default | meaning |');
      const end = section.indexOf('\n\n', start);
      expect(section.slice(start, end)).to.equal(configTable());
    });
  });
});
