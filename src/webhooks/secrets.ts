/**
 * Signing secrets: `whsec_` + base64 of 32 random bytes, the Standard Webhooks form. The signer
 * needs the secret itself, so it cannot be stored as a hash; it is sealed instead with
 * AES-256-GCM under a key derived (HKDF-SHA256) from the service secret (APP_SECRET, or the one
 * generated into DATA_DIR/secret), bound to the webhook's id so a sealed value cannot be moved
 * to another webhook. Events and read models hold only the sealed form.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
const VERSION = 'v1';

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export interface SecretBox {
  seal(secret: string, webhookId: string): string;
  /** throws UnreadableSecret when the service secret changed or the value was tampered with */
  open(sealed: string, webhookId: string): string;
}

export class UnreadableSecret extends Error {
  override readonly name = 'UnreadableSecret';
}

/**
 * Secrets opened so far, by webhook and sealed value: every attempt signs with its webhook's
 * secrets, and opening one costs ~10 µs (a decipher set up per call) on the thread that answers
 * requests. The process holds the key that opens them all, so keeping them opened in memory
 * exposes nothing more. Bounded; the oldest go first.
 */
const OPENED_MAX = 1_000;

export function createSecretBox(serviceSecret: string): SecretBox {
  const key = Buffer.from(
    hkdfSync('sha256', serviceSecret, 'feedback-board', 'webhook signing secrets v1', 32),
  );
  const opened = new Map<string, string>();
  function decrypt(sealed: string, webhookId: string): string {
    const [version, iv, body] = sealed.split('.');
    if (version !== VERSION || !iv || !body) throw new UnreadableSecret('unknown secret format');
    try {
      const bytes = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(webhookId, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - 16)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new UnreadableSecret(
        'the signing secret cannot be decrypted (was APP_SECRET changed?); rotate the secret',
      );
    }
  }
  return {
    seal(secret, webhookId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(webhookId, 'utf8'));
      const sealed = Buffer.concat([
        cipher.update(secret, 'utf8'),
        cipher.final(),
        cipher.getAuthTag(),
      ]);
      return `${VERSION}.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
    },
    open(sealed, webhookId) {
      const memo = `${webhookId} ${sealed}`;
      const known = opened.get(memo);
      if (known !== undefined) return known;
      const secret = decrypt(sealed, webhookId);
      if (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value!);
      opened.set(memo, secret);
      return secret;
    },
  };
}
