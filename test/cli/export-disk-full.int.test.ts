/**
 * README, Admin CLI: "Errors are one line on stderr and exit code 1", and `export` "never leaves
 * a file that looks whole" (src/feedback/transfer/export.ts). A disk that fills while an export
 * is written takes only part of a write: write(2) answers how much it took, and the export once
 * dropped the rest without a word — `exported N events` with exit code 0 and a file cut short,
 * a backup that restores nothing. The disk filling up is the file-size limit of the process
 * (`ulimit -f`), which cuts a write the same way and needs no mounted file system.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { withSession } from '../../src/cli/session.js';
import { loadConfig } from '../../src/config/load.js';
import { submitFeedback } from '../../src/feedback/actions/index.js';
import { type CliRun, cliOk, removeDir, seedBoard, tempDataDir } from './support.js';

/** 512-byte blocks (POSIX sh): 128 KiB, well under the export of the items below */
const FILE_SIZE_LIMIT_BLOCKS = 128;
const ITEMS = 60;
const BODY = 'The export must carry every byte of this body. '.repeat(90);

/** the CLI as an operator runs it, in a shell whose files may not grow past the limit */
function cliWithFileSizeLimit(dataDir: string, ...args: string[]): Promise<CliRun> {
  const quoted = args.map((arg) => `'${arg}'`).join(' ');
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      [
        '-c',
        `ulimit -f ${FILE_SIZE_LIMIT_BLOCKS} && exec '${process.execPath}' --import tsx src/cli/main.ts ${quoted}`,
      ],
      { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

describe('When the disk fills up while `export` writes its file (CLI)', function () {
  this.timeout(120_000);
  let source: string;
  let target: string;
  before(async () => {
    source = tempDataDir();
    target = tempDataDir();
    const { workspaceId } = await seedBoard(source);
    await withSession(loadConfig({ DATA_DIR: source }), async ({ deps, context }) => {
      for (let i = 0; i < ITEMS; i++) {
        await submitFeedback(deps, context(), {
          workspaceId,
          productKey: 'APP',
          body: `${i}: ${BODY}`,
          requester: { email: `customer${i}@customer.io`, displayName: `Customer ${i}` },
          allowPrivate: true,
        });
      }
    });
  });
  after(() => {
    removeDir(source);
    removeDir(target);
  });

  it('fails in one line with exit code 1 and leaves no file, not a cut one reported as exported', async () => {
    const out = join(target, 'acme.jsonl');
    const run = await cliWithFileSizeLimit(
      source,
      'export',
      '--workspace',
      'acme-co',
      '--out',
      out,
    );
    expect(run.stdout, 'stdout').not.to.match(/exported/);
    expect(run.stderr.trim()).to.equal(`error: cannot write ${out} (EFBIG); nothing was written`);
    expect(run.code).to.equal(1);
    expect(existsSync(out), 'the export file').to.equal(false);
    expect(readdirSync(target), 'files left in the folder').to.deep.equal([]);
  });

  it('writes the whole file where the disk has room (the same export is larger than the limit)', async () => {
    const out = join(target, 'whole.jsonl');
    await cliOk(source, 'export', '--workspace', 'acme-co', '--out', out);
    expect(statSync(out).size).to.be.greaterThan(FILE_SIZE_LIMIT_BLOCKS * 1024);
  });
});
