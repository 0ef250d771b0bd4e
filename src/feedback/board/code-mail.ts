/**
 * The mail with a board visitor's confirmation code. It goes to any address a visitor types, so
 * it carries the service's words, not a maker's: the subject is the service's own, as the
 * sign-in mail's is (src/auth/interaction/sign-in.ts: "Your Feedback board sign-in code: …"),
 * whatever the product is called — a product named "Your bank account is locked — call …" would
 * otherwise put a maker's sentence, as the service's, in the subject of a mail to anyone. The
 * product is named in the body only, after the code, between quotation marks, on one line,
 * without bidirectional controls and cut at NAME_SHOWN characters.
 */
import { cutAt, tidyName } from '../../../commands/shared/text.js';
import type { MailMessage } from '../../auth/mail/port.js';
import { FEEDBACK_SERVICE_NAME } from '../auth/settings.js';
import type { PublicProduct } from './queries.js';

/** at most this many characters of the product's name are shown */
export const NAME_SHOWN = 60;

/**
 * The product's name as the mail quotes it: line and paragraph separators become spaces (a name
 * refuses control characters, not these), bidirectional controls and marks are dropped (they
 * would reorder the service's words around it), and a longer name is cut with "…".
 */
export function quotedName(name: string): string {
  const line = name.replace(/[\p{Zl}\p{Zp}]/gu, ' ').replace(/[\u200E\u200F\u061C]/g, '');
  const tidy = (tidyName(line) ?? '').replace(/\s+/g, ' ');
  const shown = cutAt(tidy, NAME_SHOWN);
  return `“${shown}${shown === tidy ? '' : '…'}”`;
}

export function codeMail(to: string, product: PublicProduct, code: string): MailMessage {
  return {
    to,
    subject: `Your ${FEEDBACK_SERVICE_NAME} confirmation code: ${code}`,
    text:
      `Your code is ${code}. It is valid for 10 minutes.\n\n` +
      `It confirms your e-mail address on the feedback board of the product named ${quotedName(product.name)}.\n\n` +
      'If you did not ask for it, ignore this message.',
  };
}
