/**
 * The embedded default mail port: appends each message as one JSON line to a file (e.g.
 * data/dev-mailbox.jsonl) and logs it, so a developer reads sign-in codes without an SMTP server.
 * GET /dev/mailbox shows the recent ones (mounted only when this port is in use).
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
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
      await mkdir(dirname(options.path), { recursive: true });
      await appendFile(options.path, `${JSON.stringify(entry)}\n`, 'utf8');
      log(
        `[dev-mailbox] to=${message.to} subject=${JSON.stringify(message.subject)} (${options.path})`,
      );
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
