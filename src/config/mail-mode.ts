/**
 * How the HTTP services send sign-in codes (issue 10 item 2), decided before anything opens:
 *
 *  - SMTP_URL set: SMTP;
 *  - otherwise only in explicit development mode (DEV_MODE=true, `npm run dev`) on a loopback HOST
 *    with loopback base URLs: the dev mailbox (a file in DATA_DIR and /dev/mailbox, which answers
 *    loopback clients only);
 *  - anything else refuses to start with one line naming SMTP_URL: a service reachable from other
 *    machines must never show sign-in codes to whoever asks.
 */
import { ConfigError } from './load.js';
import type { Config } from './schema.js';

export type MailMode = 'smtp' | 'dev-mailbox';

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.test(host);
}

export function mailModeOf(config: Config): MailMode {
  if (config.SMTP_URL) return 'smtp';
  if (!isLoopbackHost(config.HOST)) {
    throw new ConfigError(
      `SMTP_URL is not set and HOST=${config.HOST} is not a loopback address: set SMTP_URL=smtp://… so sign-in codes are mailed (the dev mailbox serves loopback only)`,
    );
  }
  const publicUrl = [
    config.FEEDBACK_BASE_URL,
    config.NOTES_BASE_URL,
    config.NOTES_ALT_BASE_URL,
  ].find((url) => url !== undefined && !isLoopbackHost(new URL(url).hostname));
  if (publicUrl) {
    throw new ConfigError(
      `SMTP_URL is not set and the service is published at ${publicUrl}: set SMTP_URL=smtp://… so sign-in codes are mailed`,
    );
  }
  if (!config.DEV_MODE) {
    throw new ConfigError(
      'SMTP_URL is not set: set SMTP_URL=smtp://… to mail sign-in codes, or DEV_MODE=true (npm run dev) to read them from the dev mailbox on this machine',
    );
  }
  return 'dev-mailbox';
}
