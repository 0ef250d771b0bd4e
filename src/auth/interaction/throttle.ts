/**
 * Throttles on e-mail sign-in (issue 10 item 1), counted per address and per client IP across
 * authorization requests, in the store (src/limits) so every API process shares them:
 *
 *  - issuing codes: at most `codesPerAddress` / `codesPerIp` per `codeWindowSeconds`, and
 *    `codesPerAddressPerDay` per 24 hours, counted under `service` rather than `prefix`: every
 *    sign-in page of one service (feedback: OAuth sign-in and the board's identity page) sends
 *    to one address from one daily count, so no surface adds its own day of mails to a victim;
 *  - wrong codes: at most `wrongCodesPerAddress` / `wrongCodesPerIp` per `wrongCodeWindowSeconds`;
 *    the wrong code that fills the window starts a lockout (base, doubling, capped, forgotten
 *    after a quiet day) during which no code is sent and no code — not even the right one — is
 *    accepted for that address or from that IP.
 *
 * A code's place among the wrong ones is held before it is compared and given back if it was
 * right (src/limits/reservations.ts): codes submitted together cannot all be compared while none
 * is counted yet. Likewise a code's place among those sent to an address is held before it is
 * sent and given back when the send failed: the limit bounds the mails an address receives, and
 * a person told "could not be sent, try again" has received none. The IP's count is of requests
 * (README: "codes requested from one IP"), so its place is kept when the send failed: it also
 * bounds how often one client makes the service knock on a failing mail server. Every place is
 * held in all the limits or in none (src/limits/holds.ts), so a request one refuses is counted by
 * no other. Waits are seconds the caller must wait (a 429 page).
 */
import { domainToASCII } from 'node:url';
import {
  createLimits,
  holdAll,
  type Limiter,
  longestWait,
  type Place,
} from '../../limits/index.js';
import type { ReadStore } from '../../readstore/types.js';
import type { SignInLimits } from '../options.js';

const DAY_S = 24 * 60 * 60;

/**
 * The mailbox an address's codes land in, as the counts of codes sent to an address key it:
 * `Ana@Example.com`, `ana+x@example.com`, `ana@example.com.` and the full-width
 * `ａｎａ@ｅｘａｍｐｌｅ.ｃｏｍ` all reach one mailbox — a `+tag` (subaddress) is delivered to its
 * mailbox by the providers people meet, a trailing dot names the same domain from the root,
 * compatibility forms fold (NFKC) as IDNA maps a domain's, and a Unicode domain is its A-label
 * (`xn--…`) — so they count as one. Counted apart,
 * each spelling had its own codes a quarter hour and a day, and anyone with enough IPs could mail
 * one person without end. Only these counts fold: an account, a pending code and the wrong-code
 * lockout keep the address as typed (emailKey), so a spelling cannot lock out another's sign-in.
 */
export function mailboxOf(email: string): string {
  const folded = email.normalize('NFKC').trim().toLowerCase();
  const at = folded.lastIndexOf('@');
  if (at < 0) return folded;
  const local = folded.slice(0, at);
  const tag = local.indexOf('+');
  const typed = folded.slice(at + 1);
  // an international domain in Unicode or as its A-label (`bücher.example`, `xn--bcher-kva.example`)
  const domain = (domainToASCII(typed) || typed).replace(/\.+$/, '');
  return `${tag > 0 ? local.slice(0, tag) : local}@${domain}`;
}

export type CheckPlace =
  | { status: 'throttled'; wait: number }
  | {
      status: 'held';
      /**
       * after the comparison: counts a wrong code (non-null: now locked out), else gives the place
       * back; never throws: a place the store fails to settle stays counted
       */
      settle(wrong: boolean): Promise<number | null>;
    };

export type IssuePlace =
  | { status: 'throttled'; wait: number }
  | {
      status: 'held';
      /**
       * once the code was sent, or its send failed (`sent` false: the address's place is given
       * back); never throws: a place the store fails to settle stays counted
       */
      settle(sent: boolean): Promise<void>;
    };

export interface SignInThrottle {
  /**
   * before a code is sent to `email` for a request from `ip`: its place, or the wait; `also`:
   * the caller's own limits on sending, held with these (given back when the send failed)
   */
  beforeIssue(email: string, ip: string, also?: readonly Place[]): Promise<IssuePlace>;
  /** before a submitted code is compared: its place among the wrong codes, or the wait */
  beforeCheck(email: string, ip: string): Promise<CheckPlace>;
}

export function createSignInThrottle(deps: {
  readStore: ReadStore;
  /** keeps each sign-in page's counters apart, e.g. `feedback_oauth` */
  prefix: string;
  /** the daily count per address, shared by the service's sign-in pages, e.g. `feedback` */
  service: string;
  limits: SignInLimits;
  now: () => number;
}): SignInThrottle {
  const { limits: f, prefix } = deps;
  const store = createLimits({ readStore: deps.readStore, now: deps.now });
  const window = (name: string, max: number, windowSeconds: number, lockout = false): Limiter =>
    store.limiter(`${prefix}:${name}`, {
      kind: 'sliding-window',
      max,
      windowSeconds,
      ...(lockout ? { lockout: f.lockout } : {}),
    });
  const codesByAddress = window('codes-address', f.codesPerAddress, f.codeWindowSeconds);
  const codesByIp = window('codes-ip', f.codesPerIp, f.codeWindowSeconds);
  const codesByAddressDaily = store.limiter(`${deps.service}:codes-address-day`, {
    kind: 'sliding-window',
    max: f.codesPerAddressPerDay,
    windowSeconds: DAY_S,
  });
  const wrongByAddress = window(
    'wrong-address',
    f.wrongCodesPerAddress,
    f.wrongCodeWindowSeconds,
    true,
  );
  const wrongByIp = window('wrong-ip', f.wrongCodesPerIp, f.wrongCodeWindowSeconds, true);

  const lockedOut = async (email: string, ip: string) =>
    longestWait(await Promise.all([wrongByAddress.peek(email), wrongByIp.peek(ip)]));

  return {
    async beforeIssue(email, ip, also = []) {
      const locked = await lockedOut(email, ip);
      if (locked !== null) return { status: 'throttled', wait: locked };
      const mailbox = mailboxOf(email);
      const hold = await holdAll([
        [codesByAddress, mailbox],
        [codesByAddressDaily, mailbox],
        [codesByIp, ip, 'kept'],
        ...also,
      ]);
      return hold.status === 'throttled' ? hold : { status: 'held', settle: hold.settle };
    },
    async beforeCheck(email, ip) {
      const hold = await holdAll([
        [wrongByAddress, email],
        [wrongByIp, ip],
      ]);
      if (hold.status === 'throttled') return hold;
      return {
        status: 'held',
        async settle(wrong) {
          await hold.settle(wrong);
          // a lockout the store cannot tell is none: the wrong code's own page answers
          return wrong ? lockedOut(email, ip).catch(() => null) : null;
        },
      };
    },
  };
}
