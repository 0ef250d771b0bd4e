import nodemailer from 'nodemailer';
import type { SmtpOptions } from '../options.js';
import type { MailMessage, MailPort } from './port.js';

export function createSmtpMail(options: SmtpOptions): MailPort {
  const transport = nodemailer.createTransport({
    host: options.host,
    port: options.port,
    secure: options.secure ?? options.port === 465,
    ...(options.user ? { auth: { user: options.user, pass: options.pass ?? '' } } : {}),
  });
  return {
    async send(message: MailMessage) {
      await transport.sendMail({ from: options.from, ...message });
    },
  };
}
