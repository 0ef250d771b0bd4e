/**
 * Where sign-in codes go (issue 10 item 2): a given port (tests), SMTP, or — only when the
 * service asked for it explicitly in development mode — the dev mailbox. With none of them the
 * auth module refuses to start: a sign-in code must never silently go nowhere.
 */
import type { Request } from 'express';
import { isLoopbackHost } from '../../config/mail-mode.js';
import { AuthConfigurationError } from '../errors.js';
import type { AuthorizationServerOptions } from '../options.js';
import { createDevMailbox } from './dev-mailbox.js';
import type { MailPort, ReadableMailbox } from './port.js';
import { createSmtpMail } from './smtp.js';

export function chooseMail(
  options: Pick<AuthorizationServerOptions, 'mail' | 'smtp' | 'devMailboxPath'>,
  log: (line: string) => void,
): { mail: MailPort; devMailbox: ReadableMailbox | null } {
  if (options.mail) return { mail: options.mail, devMailbox: null };
  if (options.smtp) return { mail: createSmtpMail(options.smtp), devMailbox: null };
  if (options.devMailboxPath) {
    const devMailbox = createDevMailbox({ path: options.devMailboxPath, log });
    return { mail: devMailbox, devMailbox };
  }
  throw new AuthConfigurationError(
    'no way to send sign-in codes: set SMTP_URL (or DEV_MODE=true on a loopback HOST for the dev mailbox)',
  );
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

export function isLoopbackAddress(address: string | undefined): boolean {
  return address !== undefined && LOOPBACK.test(address);
}

/**
 * A request made on this machine: from a loopback socket, not relayed by a proxy (a proxy on
 * the same host would otherwise make every visitor look local), and addressed to a loopback
 * name — a page of another site that rebinds its DNS name to 127.0.0.1 reaches this socket from
 * the developer's own browser, but with its own name in Host.
 */
export function isLocalRequest(req: Request): boolean {
  const relayed = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via'].some(
    (name) => req.headers[name] !== undefined,
  );
  return (
    !relayed &&
    isLoopbackAddress(req.socket.remoteAddress) &&
    // Host without its port: "localhost", "127.0.0.1" or "[::1]" (IPv6 is bracketed in Host)
    isLoopbackHost(req.headers.host?.replace(/:\d+$/, '') ?? '')
  );
}
