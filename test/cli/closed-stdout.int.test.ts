/**
 * A reader that stops early (`| head -1`, `grep -m1`, a script that took its line) ends no CLI
 * command: "EPIPE on stdout ends the command quietly, after the work is done" — no stack trace,
 * exit code 0 (src/cli/output.ts says why not 141) — and `create-token`'s secret comes first, in
 * one write, so `| head -1` takes it whole and it is usable.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { tokensOf } from '../../projections/tokens/projector.js';
import { isTokenUsable, tokenByHash } from '../../projections/tokens/queries.js';
import { userByEmail } from '../../projections/users/queries.js';
import { workspaceBySlug } from '../../projections/workspaces/queries.js';
import { hashToken } from '../../src/feedback/actions/index.js';
import { removeDir, seedBoard, tempDataDir, withStores } from './support.js';

interface Run {
  code: number | null;
  firstLine: string;
  stderr: string;
}

/**
 * The CLI with its stdout read by a reader that closes it: after the first line, or at once
 * (before the command has written anything, so every write it makes meets a closed pipe).
 */
function cliClosing(dataDir: string, when: 'first-line' | 'at-once', ...args: string[]) {
  return new Promise<Run>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let read = '';
    let stderr = '';
    if (when === 'at-once') child.stdout.destroy();
    else {
      child.stdout.on('data', (chunk: Buffer) => {
        read += chunk.toString();
        if (read.includes('\n')) child.stdout.destroy();
      });
    }
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => resolve({ code, firstLine: read.split('\n')[0]!, stderr }));
  });
}

describe('When the reader of the CLI stdout stops reading early', function () {
  this.timeout(240_000);
  let dir: string;
  let copy: string;
  before(async () => {
    dir = tempDataDir();
    copy = tempDataDir();
    await seedBoard(dir);
  });
  after(() => {
    removeDir(dir);
    removeDir(copy);
  });

  it('`create-token … | head -1` takes the whole token, which is usable', async () => {
    const run = await cliClosing(
      dir,
      'first-line',
      ...['create-token', '--email', 'max@acme.io', '--name', 'piped'],
    );
    expect(run.stderr).to.equal('');
    expect(run.code).to.equal(0);
    expect(run.firstLine).to.match(/^rft_service_[A-Za-z0-9_-]+$/);
    await withStores(dir, async ({ readStore }) => {
      const stored = await tokenByHash(readStore, hashToken(run.firstLine));
      expect(stored?.name).to.equal('piped');
      expect(isTokenUsable(stored!, Date.now())).to.equal(true);
    });
  });

  it('no command that prints dies of it: each does its work, exit code 0, nothing on stderr', async () => {
    const file = join(dir, 'acme.jsonl');
    const commands: [string, string[]][] = [
      [dir, ['help']],
      [dir, ['config']],
      [dir, ['create-token', '--help']],
      [dir, ['create-user', '--email', 'eva@acme.io', '--name', 'Eva']],
      [dir, ['create-workspace', '--slug', 'eva-co', '--name', 'Eva', '--owner', 'eva@acme.io']],
      [dir, ['add-member', '--workspace', 'eva-co', '--email', 'max@acme.io', '--role', 'member']],
      [dir, ['create-product', '--workspace', 'eva-co', '--key', 'EVA', '--name', 'Eva app']],
      [dir, ['create-token', '--email', 'eva@acme.io', '--name', 'unread']],
      [dir, ['revoke-token', '--email', 'eva@acme.io', '--name', 'unread']],
      [
        dir,
        [
          'import-items',
          '--workspace',
          'eva-co',
          '--product',
          'EVA',
          '--file',
          'examples/items.json',
        ],
      ],
      [dir, ['remove-member', '--workspace', 'eva-co', '--email', 'max@acme.io']],
      [dir, ['rebuild']],
      [dir, ['rebuild', '--projector', 'products']],
      [dir, ['verify']],
      [dir, ['export', '--workspace', 'eva-co', '--out', file]],
      [copy, ['import-workspace', '--file', file]],
    ];
    for (const [dataDir, args] of commands) {
      const run = await cliClosing(dataDir, 'at-once', ...args);
      expect({ command: args.join(' '), stderr: run.stderr, code: run.code }).to.deep.equal({
        command: args.join(' '),
        stderr: '',
        code: 0,
      });
    }
    // the work was done although nobody read about it: each command above built on the one
    // before, the export was written and imported, and the unread token was made and revoked
    expect(existsSync(file)).to.equal(true);
    await withStores(dir, async ({ readStore }) => {
      const eva = await userByEmail(readStore, 'eva@acme.io');
      const tokens = await tokensOf(readStore).find({ ownerId: eva!.userId });
      expect(tokens.map((t) => [t.name, t.revoked])).to.deep.equal([['unread', true]]);
    });
    await withStores(copy, async ({ readStore }) => {
      expect((await workspaceBySlug(readStore, 'eva-co'))?.name).to.equal('Eva');
    });
  });
});
