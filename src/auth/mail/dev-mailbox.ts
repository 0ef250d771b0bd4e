/**
 * The embedded default mail port: appends each message as one JSON line to a file (e.g.
 * data/dev-mailbox.jsonl) and logs where it went, so a developer reads sign-in codes without an
 * SMTP server. GET /dev/mailbox shows the recent ones (mounted only when this port is in use).
 * The log line never holds the message: a subject carries the code, and logs travel further
 * than a 0600 file and a loopback-only page.
 */
import { appendFile, chmod, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MailMessage, ReadableMailbox } from './port.js';

export function createDevMailbox(options: {
  path: string;
  log?: (line: string) => void;
}): ReadableMailbox {
  const log = options.log ?? ((line: string) => console.log(line));
  return {
    async send(message: MailMessage) {
      const entry = { ...message, sentAt: new Date().toISOString() };
      // sign-in codes: readable by this user only, whatever the umask (issue 10 item 5)
      await mkdir(dirname(options.path), { recursive: true, mode: 0o700 });
      await appendFile(options.path, `${JSON.stringify(entry)}\n`, {
        encoding: 'utf8',
        mode: 0o600,
      });
      await chmod(options.path, 0o600);
      log(`[dev-mailbox] a message to ${message.to} is in ${options.path} and /dev/mailbox`);
    },
    async recent(limit: number) {
      let text = '';
      try {
        text = await readFile(options.path, 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .slice(-limit)
        .reverse()
        .map((line) => JSON.parse(line) as MailMessage & { sentAt: string });
    },
  };
}
