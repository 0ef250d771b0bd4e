/**
 * Spam and rate limits for everything the public files (issue 12 item 5): the board page's
 * capture box, the capture endpoint, the widget and submit_feedback ("uses the same spam and
 * rate-limit handling as the capture box on the public page") all pass through this one guard.
 *
 *  - three token buckets kept in the store (src/limits), so every API process shares them:
 *    per client IP, per person (visitor or caller) and per product — a burst, then a steady rate;
 *  - content: at most `maxLinks` links, never only whitespace, a body of at most 5000 characters
 *    and a title of at most 200 (the capture box's fields; members filing with submit_feedback
 *    are not held to them);
 *  - bots: a honeypot field that must stay empty, and a minimum fill time carried by the signed
 *    form token (tokens.ts) — checked by the surfaces that show a form.
 *
 * A refusal throws before anything is appended: ResourceExhausted (429 with Retry-After) or
 * InvalidArgument (400). A submission or +1 holds its tokens in every bucket before it acts, all
 * or none (src/limits/holds.ts), and gives them back when it was not made: requests sent together
 * cannot all pass a look at the buckets before any draws, and a request one bucket refuses, or
 * that files nothing, costs the others nothing.
 */
import { InvalidArgument, ResourceExhausted } from '../../../commands/shared/errors.js';
import { textUpTo } from '../../../commands/shared/text.js';
import type { Config } from '../../config/schema.js';
import {
  createLimits,
  holdAll,
  type Limiter,
  longestWait,
  type Place,
} from '../../limits/index.js';
import type { ReadStore } from '../../readstore/types.js';

/** The lengths of the capture box's fields, for everything the public files. */
export const CAPTURE_TITLE_MAX = 200;
export const CAPTURE_BODY_MAX = 5000;

export interface CaptureLimits {
  ipBurst: number;
  ipPerHour: number;
  personBurst: number;
  personPerHour: number;
  productBurst: number;
  productPerHour: number;
  minFillSeconds: number;
  maxLinks: number;
  plusOnesPerIpPerHour: number;
  plusOnesPerIpPerItemPerDay: number;
  searchesPerIpBurst: number;
  searchesPerIpPerHour: number;
  codesPerVisitorBurst: number;
  codesPerVisitorPerHour: number;
}

export function captureLimitsFrom(config: Config): CaptureLimits {
  return {
    ipBurst: config.CAPTURE_IP_BURST,
    ipPerHour: config.CAPTURE_IP_PER_HOUR,
    personBurst: config.CAPTURE_PERSON_BURST,
    personPerHour: config.CAPTURE_PERSON_PER_HOUR,
    productBurst: config.CAPTURE_PRODUCT_BURST,
    productPerHour: config.CAPTURE_PRODUCT_PER_HOUR,
    minFillSeconds: config.CAPTURE_MIN_FILL_SECONDS,
    maxLinks: config.CAPTURE_MAX_LINKS,
    plusOnesPerIpPerHour: config.PLUS_ONES_PER_IP_PER_HOUR,
    plusOnesPerIpPerItemPerDay: config.PLUS_ONES_PER_IP_PER_ITEM_PER_DAY,
    searchesPerIpBurst: config.BOARD_SEARCHES_PER_IP_BURST,
    searchesPerIpPerHour: config.BOARD_SEARCHES_PER_IP_PER_HOUR,
    codesPerVisitorBurst: config.BOARD_CODES_PER_VISITOR_BURST,
    codesPerVisitorPerHour: config.BOARD_CODES_PER_VISITOR_PER_HOUR,
  };
}

/** Who is asking, for the buckets. */
export interface Asker {
  /** the client IP; absent for bearer callers of the API (see file.ts) */
  ip?: string;
  /** the visitor id, the calling user, … — one key per person */
  person: string;
  /** `<workspaceId>.<KEY>` */
  product: string;
}

export interface CaptureGuard {
  readonly limits: CaptureLimits;
  /** throws InvalidArgument when the text breaks a content rule */
  checkContent(text: { title?: string | null; body: string }): void;
  /**
   * holds one submission in each bucket, or throws ResourceExhausted; settle: whether it was
   * filed (else its tokens are given back)
   */
  holdSubmission(asker: Asker): Promise<Settle>;
  /**
   * only checks that each bucket has a submission left, or throws ResourceExhausted: for a
   * submission that will be refused 412 (its If-Match or If-None-Match cannot hold), which must
   * write nothing, a rate bucket included (test/architecture/if-match-refusals)
   */
  peekSubmission(asker: Asker): Promise<void>;
  /**
   * holds one +1 toggle in the client IP's bucket and, for a +1 added by a visitor without a
   * confirmed address (`unconfirmedAdd`: `<workspaceId>.<itemKey>`), one in the IP's bucket for
   * that item — both or neither — or throws ResourceExhausted. Clearing cookies makes a new
   * visitor, and so another +1, each time: the item's bucket bounds what one network can add that
   * way. settle: whether the toggle was made (else its tokens are given back)
   */
  holdPlusOne(ip: string, unconfirmedAdd?: string): Promise<Settle>;
  /**
   * one board search (a page's `q`, a suggestion) from the client IP's bucket, or throws
   * ResourceExhausted; `peek`: only checks one is left, for a search that will not run (a 304)
   */
  takeSearch(ip: string, mode?: 'take' | 'peek'): Promise<void>;
  /** one confirmation code sent for the visitor's bucket, or throws ResourceExhausted */
  readonly codes: Limiter;
}

/** after the action: whether it happened (its tokens kept) or not (given back); never throws */
export type Settle = (happened: boolean) => Promise<void>;

const LINK = /\bhttps?:\/\/|\bwww\.[a-z0-9-]+\.[a-z]{2,}/gi;

export function countLinks(text: string): number {
  return text.match(LINK)?.length ?? 0;
}

export function tooMany(what: string, seconds: number): ResourceExhausted {
  return new ResourceExhausted(`too many ${what}; try again in ${seconds} s`, seconds);
}

function tooManyOnItem(seconds: number): ResourceExhausted {
  return new ResourceExhausted(
    `too many +1s on this item from your network; try again in ${seconds} s, or confirm your e-mail address to add yours now`,
    seconds,
  );
}

export function createCaptureGuard(deps: {
  readStore: ReadStore;
  now: () => number;
  limits: CaptureLimits;
}): CaptureGuard {
  const { limits } = deps;
  const store = createLimits({ readStore: deps.readStore, now: deps.now });
  const bucket = (name: string, burst: number, perHour: number): Limiter =>
    store.limiter(`capture:${name}`, {
      kind: 'token-bucket',
      capacity: burst,
      refillEverySeconds: 3600 / perHour,
    });
  const byIp = bucket('ip', limits.ipBurst, limits.ipPerHour);
  const byPerson = bucket('person', limits.personBurst, limits.personPerHour);
  const byProduct = bucket('product', limits.productBurst, limits.productPerHour);
  const submissionPlaces = (asker: Asker): Place[] => [
    ...(asker.ip ? [[byIp, asker.ip] as const] : []),
    [byPerson, asker.person],
    [byProduct, asker.product],
  ];
  const plusOnes = bucket(
    'plus-one-ip',
    Math.max(1, Math.round(limits.plusOnesPerIpPerHour / 10)),
    limits.plusOnesPerIpPerHour,
  );
  const perItem = limits.plusOnesPerIpPerItemPerDay;
  const plusOnesOnItem = bucket('plus-one-ip-item', perItem, perItem / 24);
  const codes = bucket('codes-visitor', limits.codesPerVisitorBurst, limits.codesPerVisitorPerHour);
  // a search embeds its query: at a typing pace, not a flood (by default 60 at once, then 10 a
  // minute)
  const searches = bucket('search-ip', limits.searchesPerIpBurst, limits.searchesPerIpPerHour);

  return {
    limits,
    codes,
    checkContent({ title, body }) {
      if (!body.trim()) throw new InvalidArgument('body must not be empty');
      textUpTo(body, 'body', CAPTURE_BODY_MAX);
      if (title) textUpTo(title, 'title', CAPTURE_TITLE_MAX);
      const links = countLinks(`${title ?? ''}\n${body}`);
      if (links > limits.maxLinks) {
        throw new InvalidArgument(
          `feedback may hold at most ${limits.maxLinks} links (this has ${links})`,
        );
      }
    },
    async holdSubmission(asker) {
      const hold = await holdAll(submissionPlaces(asker));
      if (hold.status === 'throttled') throw tooMany('submissions', hold.wait);
      return hold.settle;
    },
    async peekSubmission(asker) {
      const places = submissionPlaces(asker);
      const wait = longestWait(
        await Promise.all(places.map(([limiter, key]) => limiter.peek(key))),
      );
      if (wait !== null) throw tooMany('submissions', wait);
    },
    async takeSearch(ip, mode = 'take') {
      const verdict = await (mode === 'peek' ? searches.peek(ip) : searches.take(ip));
      if (!verdict.allowed) throw tooMany('searches', verdict.retryAfterSeconds);
    },
    async holdPlusOne(ip, unconfirmedAdd) {
      const places: Place[] = [[plusOnes, ip]];
      if (unconfirmedAdd !== undefined) places.push([plusOnesOnItem, `${ip} ${unconfirmedAdd}`]);
      const hold = await holdAll(places);
      if (hold.status === 'held') return hold.settle;
      const [ipWait, itemWait] = hold.waits;
      if (ipWait !== null && ipWait !== undefined) throw tooMany('+1s', ipWait);
      throw tooManyOnItem(itemWait ?? hold.wait);
    },
  };
}
