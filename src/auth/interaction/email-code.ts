/**
 * One-time sign-in codes: 6 digits, stored only as an HMAC, valid 10 minutes, 5 attempts, used
 * once, bound to one interaction (so a code cannot finish somebody else's sign-in). A submitted
 * code is compared as HMACs of equal length with timingSafeEqual: constant time. The throttles across
 * interactions (per address, per IP, lockout) are throttle.ts's.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Doc, ReadStore } from '../../readstore/types.js';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;

/** what a sign-in page says to an entry that is no code: it costs no try */
export const NOT_A_CODE = 'The code is the 6 digits in the e-mail we sent; type them again.';

/**
 * The code as typed, or null when it is not one: 6 digits, with the spaces a mail client's
 * selection takes along around them. The code fields take up to 100 characters and no pattern, so
 * that such a paste is sent and what is no code is told in the service's words, not the
 * browser's "match the requested format".
 */
export function codeDigits(typed: string): string | null {
  const code = typed.trim();
  return /^\d{6}$/.test(code) ? code : null;
}

interface CodeDoc extends Doc {
  email: string;
  codeHash: string;
  expiresAt: number;
  attempts: number;
}

export type CodeCheck =
  | { status: 'ok'; email: string }
  /** attemptsLeft 0: that was the last try, the code is now unusable */
  | { status: 'wrong'; email: string; attemptsLeft: number }
  | { status: 'expired' };

export function createEmailCodes(deps: {
  readStore: ReadStore;
  collection: string;
  secret: string;
  now: () => number;
}) {
  const col = deps.readStore.collection<CodeDoc>(deps.collection);
  const hash = (uid: string, code: string) =>
    createHmac('sha256', deps.secret).update(`${uid}:${code}`).digest('hex');

  return {
    /** issues a fresh code for the interaction (replacing any earlier one) and returns it */
    async issue(uid: string, email: string): Promise<string> {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const doc: CodeDoc = {
        _id: uid,
        email,
        codeHash: hash(uid, code),
        expiresAt: deps.now() + CODE_TTL_MS,
        attempts: 0,
      };
      await col.replaceOne({ _id: uid }, doc, { upsert: true });
      await col.deleteMany({ expiresAt: { $lte: deps.now() } });
      await deps.readStore.flush();
      return code;
    },
    /** drops the interaction's code (it could not be delivered) */
    async forget(uid: string): Promise<void> {
      await col.deleteOne({ _id: uid });
      await deps.readStore.flush();
    },
    async pendingEmail(uid: string): Promise<string | null> {
      const doc = await col.findOne({ _id: uid });
      return doc && doc.expiresAt > deps.now() && doc.attempts < CODE_MAX_ATTEMPTS
        ? doc.email
        : null;
    },
    /**
     * Counts the try before comparing, as one compare-and-set on the count read: guesses that
     * arrive together (several API processes, a slow store) each take their own try, so no more
     * than CODE_MAX_ATTEMPTS are ever compared. One that lost the race to another reads again.
     */
    async check(uid: string, code: string): Promise<CodeCheck> {
      for (;;) {
        const doc = await col.findOne({ _id: uid });
        if (!doc || doc.expiresAt <= deps.now() || doc.attempts >= CODE_MAX_ATTEMPTS)
          return { status: 'expired' };
        // the code hash too: a code issued again meanwhile is another code, with its own tries
        const counted = await col.updateOne(
          { _id: uid, codeHash: doc.codeHash, attempts: doc.attempts },
          { $inc: { attempts: 1 } },
        );
        if (counted.matchedCount === 0) continue;
        await deps.readStore.flush();
        const given = Buffer.from(hash(uid, code.trim()), 'hex');
        if (timingSafeEqual(given, Buffer.from(doc.codeHash, 'hex'))) {
          // used up as a compare-and-set too: of two right codes that both took a try, only the
          // one that removes the code signs in; the other is answered as a code already used
          const used = await col.deleteOne({ _id: uid, codeHash: doc.codeHash });
          await deps.readStore.flush();
          return used.deletedCount === 1
            ? { status: 'ok', email: doc.email }
            : { status: 'expired' };
        }
        const attemptsLeft = CODE_MAX_ATTEMPTS - doc.attempts - 1;
        return { status: 'wrong', email: doc.email, attemptsLeft };
      }
    },
  };
}

export type EmailCodes = ReturnType<typeof createEmailCodes>;
