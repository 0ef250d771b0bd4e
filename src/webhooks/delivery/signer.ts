/**
 * Standard Webhooks headers, signed with the `standardwebhooks` package itself so what we send
 * is exactly what its verifier accepts: `webhook-signature` is `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>`, one per secret that currently signs, space-separated.
 */
import { Webhook } from 'standardwebhooks';

export const USER_AGENT = 'FeedbackBoard-Webhooks/1.0';

export function signedHeaders(input: {
  messageId: string;
  secrets: readonly string[];
  body: string;
  /** the time of sending: receivers compare it with their own clock */
  sentAt: Date;
}): Record<string, string> {
  const signatures = input.secrets.map((secret) =>
    new Webhook(secret).sign(input.messageId, input.sentAt, input.body),
  );
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': input.messageId,
    'webhook-timestamp': String(Math.floor(input.sentAt.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
