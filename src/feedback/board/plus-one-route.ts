/**
 * POST /{slug}/{key}/items/{itemKey}/plus-one (issue 12 item 2): toggles the visitor's +1 — one
 * per person per item, counted in plusOneCount, and it makes them a participant — limited per
 * client IP. A form is redirected back (to the item, or to the board with the sort, filter,
 * search and page it was pressed on); board.js asks for JSON.
 *
 * The item decider records nothing for the submitter (their own request already counts, and is
 * not an extra +1), so their press is refused here (409) rather than answered as if it toggled.
 */
import { requestIdsFor } from '../../http/respond.js';
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { FailedPrecondition, NotFound } from '../../../commands/shared/errors.js';
import { findItem } from '../../../projections/items/queries.js';
import {
  addPlusOne,
  type CommandContext,
  followMergedDocs,
  registerPerson,
  withdrawPlusOne,
} from '../actions/index.js';
import { boardQueryOf } from './board-page.js';
import { readForm } from './body.js';
import { type BoardDeps, ipOf, NO_SUCH_ITEM, requesterOf, wantsJson } from './context.js';
import { navOf } from './nav.js';
import type { Visitor } from './tokens.js';
import { boardRoute, visitorFor } from './visitor-http.js';
import { boardHref } from './views/board.js';
import { settling } from '../../limits/index.js';
import { sendOn } from './respond.js';

const PlusOneForm = z.object({
  csrf: z.string().max(200).optional(),
  back: z.enum(['board', 'item']).optional(),
  /** the board's query string the button was on (`back: board`); only its known parameters count */
  query: z.string().max(2000).optional(),
  /** whether the button showed the visitor's +1 given (its aria-pressed) when it was pressed */
  given: z.enum(['true', 'false']).optional(),
});

export const OWN_ITEM =
  'this is your own feedback: it already counts as your request, so it takes no +1 from you';

export function mountPlusOne(router: Router, deps: BoardDeps): void {
  router.post(
    '/:slug/:key/items/:itemKey/plus-one',
    boardRoute(deps, async (req, res, product) => {
      const form = await readForm(req, res, PlusOneForm);
      const itemKey = String(req.params.itemKey);
      const { workspaceId } = product;
      const doc = itemKey.startsWith(`${product.key}-`)
        ? await findItem(deps.readStore, { workspaceId, itemKey })
        : null;
      if (!doc) throw new NotFound(NO_SUCH_ITEM);
      const visitor = await visitorFor(deps, req, res, form.csrf);
      const requester = requesterOf(visitor);
      const now = deps.now();
      const personId = await deps.personIds.resolve(workspaceId, requester, { actor: null, now });
      // a merged item's +1s count on the end of its merges (A into B, B into C: on C)
      const current = doc._mergedInto
        ? (await followMergedDocs(deps.readStore, workspaceId, itemKey)).docs.at(-1)
        : doc;
      // (a +1 on an item merged into theirs is recorded by the decider, for an unmerge to return)
      if (doc._submitterId === personId) throw new FailedPrecondition(OWN_ITEM);
      const given = current?._plusOnes.includes(personId) ?? false;
      // the press does what the button showed: a page shown before a +1 or a withdrawal in another
      // tab does not undo it (a toggle did)
      const wanted = form.given === undefined ? !given : form.given === 'false';
      const after =
        wanted === given
          ? current
          : await toggle(deps, req, res, {
              ...{ workspaceId, visitor, requester, personId, given, itemKey, now },
              counted: current?.id ?? itemKey,
            });
      const shownKey = after?.id ?? itemKey;
      const url = `${navOf(deps, product, 'item').boardUrl}/items/${shownKey}`;
      if (wantsJson(req)) {
        res.setHeader('Cache-Control', 'no-store');
        res.json({
          itemId: shownKey,
          plusOneCount: after?.plusOneCount ?? 0,
          plusOned: after?._plusOnes.includes(personId) ?? false,
          csrf: deps.tokens.csrf(visitor),
        });
        return;
      }
      if (form.back !== 'board') return sendOn(res, 303, url);
      // rebuilt from the board's own address and its known parameters: never an open redirect;
      // to the row pressed, so the visitor is where they were and sees their +1 counted
      const query = boardQueryOf(Object.fromEntries(new URLSearchParams(form.query ?? '')));
      sendOn(
        res,
        303,
        `${boardHref(navOf(deps, product, 'board').boardUrl, query)}#item-${shownKey}`,
      );
    }),
  );
}

/** Adds or withdraws the visitor's +1 (limited per IP) and answers the item as it is after. */
async function toggle(
  deps: BoardDeps,
  req: Request,
  res: Response,
  press: {
    workspaceId: string;
    visitor: Visitor;
    requester: ReturnType<typeof requesterOf>;
    personId: string;
    given: boolean;
    itemKey: string;
    /** the item whose +1s count it: the survivor of a merged one */
    counted: string;
    now: number;
  },
) {
  const { workspaceId, visitor, requester, personId, given, itemKey, now } = press;
  // an unconfirmed visitor's +1 is a cookie's: the IP's bucket for the item bounds stuffing
  const adds = !given && !visitor.email ? `${workspaceId}.${press.counted}` : undefined;
  // held before the toggle and given back when it is refused (the item gone, …): only a +1 made
  // or withdrawn counts, and presses sent together cannot all pass before any is counted
  const settle = await deps.guard.holdPlusOne(ipOf(deps, req), adds);
  const context: CommandContext = { actor: personId, now, ...requestIdsFor(req, res) };
  const { person, result } = await settling(
    settle,
    (async () => {
      const person = await registerPerson(deps, context, { workspaceId, requester, personId });
      const input = { workspaceId, itemKey, personId };
      const result = given
        ? await withdrawPlusOne(deps, context, input)
        : await addPlusOne(deps, context, input);
      return { person, result };
    })(),
  );
  const position = result.position ?? person.position;
  if (position !== null) await deps.waitFor(position);
  return findItem(deps.readStore, { workspaceId, itemKey: result.itemKey });
}
