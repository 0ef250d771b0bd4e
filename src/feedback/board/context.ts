/**
 * What the public board's routes share: the stores and handler, the guard, the signed tokens,
 * the mail port and code store for e-mail confirmation, where the board lives, and the small
 * request helpers (the visitor from the cookie, the client IP, answering as JSON or as a page).
 */
import type { Request, Response } from 'express';
import { parse as parseCookies, serialize } from 'cookie';
import { clientNetwork } from '../../auth/index.js';
import type { SignInThrottle } from '../../auth/interaction/throttle.js';
import type { MailPort } from '../../auth/mail/port.js';
import type { UpstreamClient } from '../../auth/upstream-client.js';
import type { Config } from '../../config/schema.js';
import type { Logger } from '../../platform/logger.js';
import type { ReadStore } from '../../readstore/types.js';
import type { CommandHandler } from '../../write/command-handler.js';
import type { PersonIds, Requester } from '../actions/index.js';
import type { CaptureGuard } from '../capture/guard.js';
import type { FeedbackSearch } from '../search/search.js';
import type { ProductLookup } from './product-lookup.js';
import type { SignOuts } from './sign-outs.js';
import { type BoardTokens, VISITOR_MAX_AGE_S, type Visitor } from './tokens.js';
import { emailKey } from '../../../commands/shared/email.js';

export const VISITOR_COOKIE = 'board_visitor';

/** an item key the public board does not have (said only once the board itself is public) */
export const NO_SUCH_ITEM = 'There is no such item on this board.';

export interface EmailCodes {
  issue(uid: string, email: string): Promise<string>;
  check(
    uid: string,
    code: string,
  ): Promise<
    | { status: 'ok'; email: string }
    | { status: 'wrong'; email: string; attemptsLeft: number }
    | { status: 'expired' }
  >;
  pendingEmail(uid: string): Promise<string | null>;
  forget(uid: string): Promise<void>;
}

export interface BoardDeps {
  config: Config;
  readStore: ReadStore;
  commandHandler: CommandHandler;
  search: FeedbackSearch;
  guard: CaptureGuard;
  /** who a visitor files and votes as (keyed ids; people made before keep theirs) */
  personIds: PersonIds;
  tokens: BoardTokens;
  /** visitors who signed out: their ids name nobody any more (sign-outs.ts) */
  signOuts: SignOuts;
  mail: MailPort;
  codes: EmailCodes;
  throttle: SignInThrottle;
  /** "sign in with" the upstream OpenID provider (tier `google`), when one is configured */
  upstream: UpstreamClient | null;
  now(): number;
  waitFor(position: bigint): Promise<void>;
  /** the public product at an address and the version of its pages (product-lookup.ts) */
  products: ProductLookup;
  logger: Logger;
  /** PUBLIC_BASE_URL without a trailing slash */
  publicBaseUrl: string;
}

export const boardUrlOf = (deps: BoardDeps, slug: string, key: string): string =>
  `${deps.publicBaseUrl}/${slug}/${key}`;

export const assetsUrl = (deps: BoardDeps): string => `${deps.publicBaseUrl}/_board`;

/**
 * The visitor the board's cookie names, or null: no cookie, one tampered with or expired, or
 * one of a visitor who signed out since (a copy of it taken before).
 */
export function cookieVisitor(deps: BoardDeps, req: Request): Promise<Visitor | null> {
  const header = req.headers.cookie;
  if (!header?.includes(VISITOR_COOKIE)) return Promise.resolve(null);
  return visitorOf(deps, parseCookies(header)[VISITOR_COOKIE]);
}

/**
 * The visitor a sealed value names (the cookie's, or the widget's token), or null when it names
 * none: tampered with, expired, or of a visitor who signed out — whose holder is then a new
 * anonymous visitor, never an error. One read by id, only for a value that opened.
 */
export async function visitorOf(deps: BoardDeps, sealed: unknown): Promise<Visitor | null> {
  const visitor = deps.tokens.openVisitor(sealed);
  if (!visitor) return null;
  return (await deps.signOuts.isRetired(visitor.id)) ? null : visitor;
}

export function setVisitorCookie(deps: BoardDeps, res: Response, visitor: Visitor): void {
  res.append(
    'Set-Cookie',
    visitorCookie(deps, deps.tokens.sealVisitor(visitor), VISITOR_MAX_AGE_S),
  );
}

/**
 * The visitor signs out: the browser drops the cookie, and their next post is a new visitor (the
 * id is retired in the store too, so a copy of the cookie names nobody: sign-outs.ts).
 */
export function clearVisitorCookie(deps: BoardDeps, res: Response): void {
  res.append('Set-Cookie', visitorCookie(deps, '', 0));
}

const visitorCookie = (deps: BoardDeps, value: string, maxAge: number) =>
  serialize(VISITOR_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.publicBaseUrl.startsWith('https:'),
    path: '/',
    maxAge,
  });

/**
 * Who a visitor files and votes as. An address they proved: the person of that address (tier
 * `email`). An address merely typed proves nothing (the impersonation rule of issue 10 item 3):
 * the item goes to an unverified person of this visitor and that address, tier `anonymous`.
 */
export function requesterOf(
  visitor: Visitor,
  given: { email?: string | null; displayName?: string | null } = {},
): Requester {
  const displayName = given.displayName?.trim() || null;
  if (visitor.email) {
    return { email: visitor.email, displayName, ...(visitor.upstream ? { tier: 'google' } : {}) };
  }
  const typed = given.email && emailKey(given.email);
  if (typed) return { email: typed, unprovenBy: `visitor:${visitor.id}`, displayName };
  return { anonymousId: `visitor:${visitor.id}`, displayName };
}

/**
 * The visitor's person on a workspace (whose +1s and items are theirs), or null without one. It
 * runs on every page view, so it asks the read model alone: a person it does not have yet has
 * nothing there to show either.
 */
export const personOfVisitor = async (
  deps: Pick<BoardDeps, 'personIds'>,
  workspaceId: string,
  visitor: Visitor | null,
): Promise<string | null> =>
  visitor ? deps.personIds.known(workspaceId, requesterOf(visitor)) : null;

/** what the board's per-IP limits count a visitor by: an IPv4 address or IPv6 /64 */
export const ipOf = (deps: BoardDeps, req: Request): string =>
  clientNetwork(req, deps.config.TRUST_PROXY);

/** The request wants a JSON answer: a JSON body, or an Accept that prefers JSON (board.js). */
export function wantsJson(req: Request): boolean {
  if (req.is('application/json')) return true;
  return req.accepts(['html', 'json']) === 'json';
}
