/**
 * The dev mailbox (DEV_MODE without SMTP_URL): README, "sign-in codes go to the dev mailbox
 * (DATA_DIR file and /dev/mailbox, loopback clients only)". The log line says where a message
 * went, never what it says: a sign-in code in a log would reach wherever logs are shipped.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createDevMailbox } from '../../src/auth/mail/dev-mailbox.js';

describe('The dev mailbox', () => {
  it('keeps the message in its file and logs only where it went', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-mailbox-'));
    try {
      const lines: string[] = [];
      const path = join(dir, 'dev-mailbox.jsonl');
      const mailbox = createDevMailbox({ path, log: (line) => lines.push(line) });
      await mailbox.send({
        to: 'max@acme.io',
        subject: 'Your Notes sign-in code: 766567',
        text: 'Your code is 766567. It expires in 10 minutes.',
      });
      expect(readFileSync(path, 'utf8')).to.include('766567');
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include('max@acme.io').and.include(path);
      expect(lines[0]).not.to.include('766567');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
