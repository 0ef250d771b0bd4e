/**
 * The public board (issue 12): pages, the capture endpoint, visitors' +1s and e-mail
 * confirmation, and the static files (board.css, board.js, widget.js). Mounted on the feedback
 * app after its own routes, before the fallback; every path either starts with a segment no
 * workspace slug can be (`/_board`, `/widget.js`) or has a product key after the slug — but for
 * the board's 404 page, answered to near misses of a board's address (near-misses.ts).
 */
import { Router } from 'express';
import { signInLimitsFrom, upstreamFrom as upstreamOf } from '../../auth/from-config.js';
import { createUpstreamClient } from '../../auth/upstream-client.js';
import { createEmailCodes } from '../../auth/interaction/email-code.js';
import { createSignInThrottle } from '../../auth/interaction/throttle.js';
import type { MailPort } from '../../auth/mail/port.js';
import type { ServiceContext } from '../../platform/service.js';
import { FEEDBACK_SIGN_IN_SERVICE } from '../auth/settings.js';
import type { CaptureGuard } from '../capture/guard.js';
import type { PersonIds } from '../actions/index.js';
import type { FeedbackSearch } from '../search/search.js';
import { mountAssets } from './assets.js';
import { mountCanonical } from './canonical.js';
import { mountCapture } from './capture.js';
import { mountFormAddresses } from './form-addresses.js';
import type { BoardDeps } from './context.js';
import { mountPages } from './pages.js';
import { createProductLookup } from './product-lookup.js';
import { BOARD_STREAMS, createBoardVersions } from './versions.js';
import { mountIdentity } from './identity-routes.js';
import { mountNearMisses } from './near-misses.js';
import { mountPlusOne } from './plus-one-route.js';
import { createSignOuts } from './sign-outs.js';
import { createBoardTokens } from './tokens.js';

export type { BoardDeps } from './context.js';

/** how often a board page asks the shared log for other processes' writes, at most */
const BOARD_POLL_MS = 50;

/** The board of the feedback app, over the service's stores, mail port, search and guard. */
export function publicBoard(
  ctx: ServiceContext,
  parts: {
    mail: MailPort;
    search: FeedbackSearch;
    guard: CaptureGuard;
    personIds: PersonIds;
    now: () => number;
    baseUrl: string;
  },
): Router {
  const { readStore } = ctx.stores;
  const { now } = parts;
  const upstream = upstreamOf(ctx.config);
  const versions = createBoardVersions();
  ctx.observeApplied(versions.heard);
  return boardRouter({
    config: ctx.config,
    readStore,
    commandHandler: ctx.commandHandler,
    search: parts.search,
    guard: parts.guard,
    personIds: parts.personIds,
    tokens: createBoardTokens(ctx.secret, now),
    signOuts: createSignOuts({ readStore, now }),
    mail: parts.mail,
    codes: createEmailCodes({
      readStore,
      collection: 'feedback_board_email_codes',
      secret: `board-codes:${ctx.secret}`,
      now,
    }),
    throttle: createSignInThrottle({
      readStore,
      prefix: 'feedback_board',
      service: FEEDBACK_SIGN_IN_SERVICE,
      limits: signInLimitsFrom(ctx.config),
      now,
    }),
    upstream: upstream
      ? createUpstreamClient({
          options: upstream,
          readStore,
          collection: 'feedback_board_upstream_states',
          now,
        })
      : null,
    now,
    waitFor: ctx.waitFor,
    // other processes' writes (the CLI, a second API process) show within BOARD_POLL_MS
    products: createProductLookup(readStore, {
      pending: ctx.pendingOn(BOARD_STREAMS, BOARD_POLL_MS),
      versions,
    }),
    logger: ctx.logger,
    publicBaseUrl: (ctx.config.PUBLIC_BASE_URL ?? parts.baseUrl).replace(/\/+$/, ''),
  });
}

/**
 * One flat router (a nested one is a layer more to walk on every request), matching its routes'
 * own words in their letter case only: a page in another case is sent on to its canonical
 * spelling (canonical.ts); any other address in another case — the suggestions' JSON, a form's
 * address (`…/Identity/Code`), a +1's — answers the board's 404 (near-misses.ts), never a
 * redirect: a script or a form post is not sent on. (Express's default matches any case.)
 */
export function boardRouter(deps: BoardDeps): Router {
  const router = Router({ caseSensitive: true });
  // first: a page in another letter case is sent on before a route takes it as its own
  mountCanonical(router, deps);
  mountPages(router, deps);
  // before the capture endpoint: a browser opening its address is sent to the board
  mountFormAddresses(router, deps);
  mountCapture(router, deps);
  mountPlusOne(router, deps);
  mountIdentity(router, deps);
  mountAssets(router);
  // last: only what no board route took
  mountNearMisses(router, deps);
  return router;
}
