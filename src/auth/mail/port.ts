export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Where sign-in codes go: the dev mailbox in the embedded default, SMTP when configured. */
export interface MailPort {
  send(message: MailMessage): Promise<void>;
}

/** A mail port that can also show what it sent (only the dev mailbox). */
export interface ReadableMailbox extends MailPort {
  recent(limit: number): Promise<Array<MailMessage & { sentAt: string }>>;
}
