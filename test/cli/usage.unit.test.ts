import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { CliEnv } from '../../src/cli/command.js';
import { InputFileError, oneLine, UsageError } from '../../src/cli/errors.js';
import { parseImportRows } from '../../src/cli/items/file.js';
import { runCli } from '../../src/cli/run.js';
import { NotFound } from '../../commands/shared/errors.js';

/** Bad command lines are refused before any store is opened: reading the config fails the test. */
function envWithoutStores(): CliEnv & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    config: () => {
      throw new Error('the command opened the stores before validating its flags');
    },
    out: (line) => lines.push(line),
  };
}

async function usageError(...argv: string[]): Promise<string> {
  try {
    await runCli(argv, envWithoutStores());
  } catch (error) {
    expect(error, (error as Error).message).to.be.instanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
}

describe('When the command line is wrong', () => {
  it('names the unknown command, the missing flag or the unknown flag', async () => {
    expect(await usageError('frob')).to.match(/unknown command "frob"/);
    expect(await usageError('create-user')).to.equal('missing --email');
    expect(await usageError('create-user', '--email')).to.equal('--email needs a value');
    expect(await usageError('create-user', '--email', 'a@b.io', '--email', 'c@d.io')).to.match(
      /given twice/,
    );
    expect(await usageError('create-user', 'a@b.io')).to.match(/unexpected argument "a@b\.io"/);
    expect(await usageError('create-user', '--mail', 'a@b.io')).to.equal(
      'unknown flag --mail (this command takes --email, --name)',
    );
  });

  it('checks e-mails, slugs, keys, roles, visibility and dates with the API rules', async () => {
    expect(await usageError('create-user', '--email', 'max.acme.io')).to.match(/^invalid --email/);
    // spec addressing: slug "5 to 20 lowercase letters, digits or single hyphens"
    for (const slug of ['abcd', 'a'.repeat(21), '-acme', 'acme--co', 'Acme-co']) {
      expect(
        await usageError('create-workspace', '--slug', slug, '--name', 'A', '--owner', 'a@b.io'),
      ).to.match(/^invalid --slug/);
    }
    // spec addressing: product key "3 to 5 uppercase letters"
    for (const key of ['AB', 'ABCDEF', 'ab1']) {
      expect(
        await usageError('create-product', '--workspace', 'acme-co', '--key', key, '--name', 'X'),
      ).to.match(/^invalid --key/);
    }
    expect(
      await usageError(
        'create-product',
        '--workspace',
        'acme-co',
        '--key',
        'APP',
        '--name',
        'X',
        '--visibility',
        'hidden',
      ),
    ).to.match(/^invalid --visibility: must be private or public/);
    expect(
      await usageError(
        'add-member',
        '--workspace',
        'acme-co',
        '--email',
        'a@b.io',
        '--role',
        'owner',
      ),
    ).to.match(/^invalid --role: must be admin or member/);
    expect(
      await usageError('create-token', '--email', 'a@b.io', '--name', 'x', '--expires', 'tomorrow'),
    ).to.match(/^invalid --expires/);
    expect(await usageError('revoke-token', '--email', 'a@b.io')).to.equal(
      'give exactly one of --name and --id',
    );
  });
});

describe('When flags look like other things', () => {
  it('names an unknown flag even when no value follows it', async () => {
    expect(await usageError('create-user', '--email', 'a@b.io', '--force')).to.equal(
      'unknown flag --force (this command takes --email, --name)',
    );
  });

  it('refuses a date that does not exist instead of rolling it over', async () => {
    expect(
      await usageError(
        'create-token',
        '--email',
        'a@b.io',
        '--name',
        'x',
        '--expires',
        '2027-02-30',
      ),
    ).to.match(/^invalid --expires/);
  });

  it("prints help for -h as the command, and takes -h as a flag's value as that value", async () => {
    const env = envWithoutStores();
    await runCli(['-h'], env);
    expect(env.lines.join('\n')).to.match(/create-user/);
    // `--name -h` names the user "-h": the command goes on to open the stores
    const named = await runCli(
      ['create-user', '--email', 'a@b.io', '--name', '-h'],
      envWithoutStores(),
    )
      .then(() => null)
      .catch((error: Error) => error.message);
    expect(named).to.equal('the command opened the stores before validating its flags');
  });
});

describe('When a file flag names something unusable', () => {
  const folder = mkdtempSync(join(tmpdir(), 'cli-paths-'));
  const existing = join(folder, 'there.jsonl');
  writeFileSync(existing, 'x');
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('export --out refuses an existing file (it once replaced the event log) and a missing folder', async () => {
    expect(await usageError('export', '--workspace', 'acme-co', '--out', existing)).to.match(
      /already exists; give a new file name/,
    );
    expect(
      await usageError('export', '--workspace', 'acme-co', '--out', join(folder, 'no/x.jsonl')),
    ).to.match(/^no folder /);
    expect(await usageError('export', '--workspace', 'acme-co', '--out', folder)).to.equal(
      `${folder} is a folder; give the name of a new file in it`,
    );
  });

  it('reads a relative path from where the command was typed (npm sets INIT_CWD)', async () => {
    const before = process.env.INIT_CWD;
    process.env.INIT_CWD = folder;
    try {
      expect(await usageError('export', '--workspace', 'acme-co', '--out', 'there.jsonl')).to.match(
        /already exists/,
      );
    } finally {
      if (before === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = before;
    }
  });

  it('import-workspace and import-items refuse a folder as --file in one line', async () => {
    for (const argv of [
      ['import-workspace', '--file', folder],
      ['import-items', '--workspace', 'acme-co', '--product', 'APP', '--file', folder],
    ]) {
      const refused = await runCli(argv, envWithoutStores()).catch((error: Error) => error);
      expect(refused).to.be.instanceOf(InputFileError);
      expect((refused as Error).message).to.match(/is a folder, not a file$/);
    }
  });
});

describe('When the CLI succeeds without stores', () => {
  it('prints the help with every command and the configuration table', async () => {
    const env = envWithoutStores();
    await runCli(['help'], env);
    for (const name of [
      'create-user',
      'create-workspace',
      'add-member',
      'remove-member',
      'create-product',
      'create-token',
      'revoke-token',
      'import-items',
      'rebuild',
      'config',
    ]) {
      expect(env.lines.join('\n')).to.contain(`  ${name} `);
    }
    await runCli(['config'], env);
    expect(env.lines.at(-1)).to.match(/\| `DATA_DIR` \| `\.\/data` \|/);
  });

  it('prints one command’s usage for `<command> --help` and runs nothing', async () => {
    const env = envWithoutStores();
    await runCli(['create-token', '--help'], env);
    await runCli(['import-items', '--workspace', 'acme', '-h'], env);
    expect(env.lines).to.have.length(2);
    expect(env.lines[0]).to.match(/^npm run cli -- create-token --email .+\n {2}\S/);
    expect(env.lines[1]).to.match(/^npm run cli -- import-items --workspace .+--file .+\n {2}\S/);
  });

  // help: "rebuild … (run without --projector to list them)"
  it('lists the read models rebuild can replay when run without --projector', async () => {
    const env = envWithoutStores();
    await runCli(['rebuild'], env);
    expect(env.lines).to.include('items (items)');
    expect(env.lines.length).to.be.greaterThan(3);
    expect(env.lines.every((line) => /^[a-z][\w-]* \([\w, ]+\)$/.test(line))).to.equal(true);
  });
});

describe('When an import file has bad entries', () => {
  it('reports each by its number (from 1) and its first problem', () => {
    const rows = [
      { body: 'ok' },
      { title: 'no body' },
      { body: 'x', plusOnes: -1 },
      { body: 'y', tag: ['a'] },
    ];
    expect(() => parseImportRows(rows, 'items.json'))
      .to.throw(InputFileError)
      .with.property('message')
      .that.matches(
        /^items\.json: 3 invalid entries .*#2 body: missing; #3 plusOnes: .*; #4 unknown field tag$/,
      );
  });

  it('tells a field of the wrong type from a missing one', () => {
    expect(() => parseImportRows([{ body: 5 }, { body: 'x', requester: 'Ann' }], 'items.json'))
      .to.throw(InputFileError)
      .with.property('message')
      .that.matches(/#1 body: must be a string; #2 requester: must be an object$/);
  });

  it("applies the service's text rules to every entry before anything is written", () => {
    // README: import-items "checks the whole file first and names every bad entry"; the rules
    // are the API's (titles and tags: no control characters, something visible; bodies: line
    // breaks and tabs only; no half surrogate pairs)
    const rows = [
      { body: 'fine' },
      { title: 'bad\u0001', body: 'x' },
      { body: 'ok', tags: ['ok', 'bad\u0002'] },
      { body: '\u200b' },
      { body: 'lone \ud800 surrogate' },
      { body: 'bell \u0007' },
      { body: 'tabs\tand\nlines are fine' },
    ];
    expect(() => parseImportRows(rows, 'items.json'))
      .to.throw(InputFileError)
      .with.property('message')
      .that.matches(/5 invalid entries/)
      .and.matches(/#2 title: title must not contain control characters/)
      .and.matches(/#3 tags\.1: tag must not contain control characters/)
      .and.matches(/#4 body: body must contain a visible character/)
      .and.matches(/#5 body: holds half of a surrogate pair/)
      .and.matches(/#6 body: body must not contain control characters other than/)
      .and.not.matches(/#1 |#7 /);
  });

  it('refuses a creation date that does not exist or lies in the future', () => {
    const year = new Date().getUTCFullYear();
    expect(() =>
      parseImportRows(
        [
          { body: 'a', createdAt: '2025-02-30' },
          { body: 'b', createdAt: `${year + 2}-01-01` },
          { body: 'c', createdAt: Date.now() + 10 * 24 * 60 * 60 * 1000 },
          { body: 'd', createdAt: '2024-02-29' },
        ],
        'f',
      ),
    )
      .to.throw(InputFileError)
      .with.property('message')
      .that.matches(
        /3 invalid entries.*#1 createdAt: not a real date; #2 createdAt: in the future; #3 createdAt: in the future$/,
      );
  });

  it('accepts ISO times and milliseconds and fills the defaults', () => {
    const [a, b] = parseImportRows(
      [
        { body: 'a', createdAt: '2025-01-08T09:12:00Z' },
        { body: 'b', createdAt: 1_700_000_000_000, requester: { email: 'x@y.io' } },
      ],
      'f',
    );
    expect(a).to.deep.include({
      status: 'new',
      tags: [],
      plusOnes: 0,
      requester: {},
      createdAt: Date.parse('2025-01-08T09:12:00Z'),
    });
    expect(b?.createdAt).to.equal(1_700_000_000_000);
  });

  it('refuses a file that is not an array', () => {
    expect(() => parseImportRows({ items: [] }, 'f.json')).to.throw(/must hold a JSON array/);
  });
});

describe('When an error reaches the top of the CLI', () => {
  it('is one line; unexpected errors say so', () => {
    expect(oneLine(new NotFound('no workspace with slug x'))).to.equal(
      'error: no workspace with slug x',
    );
    expect(oneLine(new TypeError('boom\n  at x'))).to.equal('unexpected error: boom; at x');
  });
});
