/**
 * POST /{slug}/{key}/items/{itemKey}/plus-one (issue 12 item 2): toggles the visitor's +1 — one
 * per person per item, counted in plusOneCount, and it makes them a participant — limited per
 * client IP. A form is redirected back (to the board or the item); board.js asks for JSON.
 */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { z } from 'zod';
import { NotFound } from '../../../commands/shared/errors.js';
import { findItem } from '../../../projections/items/queries.js';
import {
  addPlusOne,
  type CommandContext,
  personIdFor,
  registerPerson,
  withdrawPlusOne,
} from '../actions/index.js';
import { readForm } from './body.js';
import { type BoardDeps, ipOf, requesterOf, wantsJson } from './context.js';
import { navOf } from './nav.js';
import { boardRoute, visitorFor } from './visitor-http.js';

const PlusOneForm = z.object({
  csrf: z.string().max(200).optional(),
  back: z.enum(['board', 'item']).optional(),
});

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
      if (!doc) throw new NotFound('item not found');
      const visitor = visitorFor(deps, req, res, form.csrf);
      await deps.guard.takePlusOne(ipOf(deps, req));
      const requester = requesterOf(visitor);
      const now = deps.now();
      const personId = personIdFor(workspaceId, requester, { actor: null, now });
      const context: CommandContext = { actor: personId, now, correlationId: randomUUID() };
      const person = await registerPerson(deps, context, { workspaceId, requester });
      const target = doc._mergedInto ?? itemKey;
      const current = doc._mergedInto
        ? await findItem(deps.readStore, { workspaceId, itemKey: target })
        : doc;
      const given = current?._plusOnes.includes(personId) ?? false;
      const input = { workspaceId, itemKey, personId };
      const result = given
        ? await withdrawPlusOne(deps, context, input)
        : await addPlusOne(deps, context, input);
      const position = result.position ?? person.position;
      if (position !== null) await deps.waitFor(position);
      const after = await findItem(deps.readStore, { workspaceId, itemKey: result.itemKey });
      const url = `${navOf(deps, product, 'item').boardUrl}/items/${result.itemKey}`;
      if (wantsJson(req)) {
        res.setHeader('Cache-Control', 'no-store');
        res.json({
          itemId: result.itemKey,
          plusOneCount: after?.plusOneCount ?? 0,
          plusOned: after?._plusOnes.includes(personId) ?? false,
          csrf: deps.tokens.csrf(visitor),
        });
        return;
      }
      res.redirect(303, form.back === 'board' ? navOf(deps, product, 'board').boardUrl : url);
    }),
  );
}
