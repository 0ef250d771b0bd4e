/**
 * Visitors who signed out, in the store every API process shares, so that signing out ends the
 * visitor everywhere and not only in the browser that asked: a copy of the sealed value taken
 * before (a synced profile, a log, another device) no longer names the visitor nor their
 * confirmed address. After signing out the browser has no cookie, and its next post is a new
 * visitor with a new id: nothing seals a signed-out id again (a code or an upstream sign-in is
 * finished only by a cookie of that id), so the id itself is retired.
 *
 * A record is kept for the life of the values it retires — a value is sealed for a year
 * (VISITOR_MAX_AGE_S) — and dropped after it, when every value of that id has expired on its own.
 */
import type { Doc, ReadStore } from '../../readstore/types.js';
import { VISITOR_MAX_AGE_S } from './tokens.js';

export const SIGN_OUTS = 'feedback_board_sign_outs';

interface SignOutDoc extends Doc {
  /** when the last value sealed before the sign-out expires (ms) */
  expiresAt: number;
}

export interface SignOuts {
  /** the visitor signed out: every value of their id stops naming them */
  retire(visitorId: string): Promise<void>;
  /** whether the visitor of this id signed out (one read by id) */
  isRetired(visitorId: string): Promise<boolean>;
}

export function createSignOuts(deps: { readStore: ReadStore; now: () => number }): SignOuts {
  const records = deps.readStore.collection<SignOutDoc>(SIGN_OUTS);
  return {
    async retire(visitorId) {
      const expiresAt = deps.now() + VISITOR_MAX_AGE_S * 1000;
      await records.replaceOne({ _id: visitorId }, { _id: visitorId, expiresAt }, { upsert: true });
      await records.deleteMany({ expiresAt: { $lte: deps.now() } });
      await deps.readStore.flush();
    },
    async isRetired(visitorId) {
      return (await records.findOne({ _id: visitorId })) !== null;
    },
  };
}
