/**
 * The CLI over a DATA_DIR that holds no event log, or cannot hold one. README, Admin CLI: "Errors
 * are one line on stderr and exit code 1"; Configuration: "a bad value stops the process with
 * … one line naming the key". A verb that only reads the log (verify, export, rebuild) refuses
 * a folder without one, as an operator's mistyped DATA_DIR, and leaves nothing behind there.
 */
import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { cliFails, cliOk, removeDir, seedBoard, tempDataDir } from './support.js';

describe('When the CLI is given a DATA_DIR without an event log', function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = tempDataDir();
  });
  after(() => removeDir(root));

  it('refuses to rebuild a read model there and creates nothing', async () => {
    const typo = join(root, 'typo');
    expect(await cliFails(typo, 'rebuild', '--projector', 'items')).to.match(
      /^error: no event log at .*typo\/store\.sqlite$/,
    );
    expect(existsSync(typo)).to.equal(false);
  });

  it('names DATA_DIR when it is a file, not a folder', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'notes');
    expect(await cliFails(file, 'create-user', '--email', 'max@acme.io')).to.equal(
      `error: DATA_DIR=${file}: is a file, not a folder`,
    );
  });

  it('refuses a write on a folder or data file its owner marked read-only, even as root, and verify still reads it', async () => {
    // README, Admin CLI: verify and export leave a DATA_DIR "marked read-only (no write bit,
    // which root heeds too)" as it was; a write command as root chmodded it and wrote
    const copy = join(root, 'backup');
    await seedBoard(copy);
    const file = join(copy, 'store.sqlite');
    for (const [path, mode, what] of [
      [copy, 0o555, 'the folder'],
      [file, 0o444, 'store.sqlite'],
    ] as const) {
      chmodSync(path, mode);
      const line = await cliFails(copy, 'create-user', '--email', 'eva@acme.io', '--name', 'Eva');
      expect(line).to.match(
        new RegExp(
          `^error: DATA_DIR=${copy}: ${what} is marked read-only \\(mode 0${mode.toString(8)}: .*make it writable \\(chmod u\\+w\\).*verify`,
        ),
      );
      expect(statSync(path).mode & 0o777).to.equal(mode);
      expect(await cliOk(copy, 'verify')).to.match(/events, chain intact/);
      chmodSync(path, path === copy ? 0o700 : 0o600);
    }
  });
});
