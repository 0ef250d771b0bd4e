/**
 * What a visitor does besides filing (issue 12 item 2):
 *  - POST /{slug}/{key}/items/{itemKey}/plus-one — toggles the visitor's +1 (one per person per
 *    item; it makes them a participant), limited per client IP;
 *  - /{slug}/{key}/identity — confirms an e-mail address with a 6-digit code sent to it (the
 *    sign-in mail port and code store, the sign-in throttles per address and IP). Only then is
 *    the visitor tier `email`; typing an address proves nothing.
 * Every form here is cookie-authenticated and carries the visitor's CSRF token; a visitor
 * without a cookie gets one (there is nothing of theirs to forge yet).
 */
import { randomUUID } from 'node:crypto';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { NotFound, PermissionDenied, ResourceExhausted } from '../../../commands/shared/errors.js';
import { findItem } from '../../../projections/items/queries.js';
import {
  addPlusOne,
  type CommandContext,
  personIdFor,
  registerPerson,
  withdrawPlusOne,
} from '../actions/index.js';
import { readForm } from './body.js';
import {
  type BoardDeps,
  cookieVisitor,
  ipOf,
  requesterOf,
  setVisitorCookie,
  wantsJson,
} from './context.js';
import { navOf } from './nav.js';
import { isBoardAddress, type PublicProduct, publicProduct } from './queries.js';
import { answerError, sendPage } from './respond.js';
import type { Visitor } from './tokens.js';
import { CodeForm, EmailForm } from './views/identity.js';
import { documentOf } from './views/layout.js';

const PlusOneForm = z.object({
  csrf: z.string().max(200).optional(),
  back: z.enum(['board', 'item']).optional(),
});
const EmailFormBody = z.object({ csrf: z.string().max(200).optional(), email: z.email().max(254) });
const CodeFormBody = z.object({
  csrf: z.string().max(200).optional(),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'the code is 6 digits'),
});

export function visitorRouter(deps: BoardDeps): Router {
  const router = Router();

  /** the cookie's visitor after a CSRF check, or a new visitor (cookie set) */
  function visitorFor(req: Request, res: Response, csrf: string | undefined): Visitor {
    const visitor = cookieVisitor(deps, req);
    if (visitor) {
      if (!deps.tokens.checkCsrf(visitor, csrf ?? req.get('x-csrf-token'))) {
        throw new PermissionDenied('the page is out of date; reload it and try again');
      }
      return visitor;
    }
    const fresh = deps.tokens.newVisitor();
    setVisitorCookie(deps, res, fresh);
    return fresh;
  }

  const route =
    (handler: (req: Request, res: Response, product: PublicProduct) => Promise<void>) =>
    async (req: Request, res: Response, next: NextFunction) => {
      const { slug, key } = req.params as { slug: string; key: string };
      if (!isBoardAddress(slug, key)) return next();
      let product: PublicProduct | null = null;
      try {
        product = await publicProduct(deps.readStore, slug, key);
        if (!product) throw new NotFound('no public product at this address');
        await handler(req, res, product);
      } catch (error) {
        answerError(deps, req, res, error, product ? navOf(deps, product, 'none') : null);
      }
    };

  router.post(
    '/:slug/:key/items/:itemKey/plus-one',
    route(async (req, res, product) => {
      const form = await readForm(req, res, PlusOneForm);
      const itemKey = String(req.params.itemKey);
      const { workspaceId } = product;
      const doc = itemKey.startsWith(`${product.key}-`)
        ? await findItem(deps.readStore, { workspaceId, itemKey })
        : null;
      if (!doc) throw new NotFound('item not found');
      const visitor = visitorFor(req, res, form.csrf);
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

  const identityAction = (product: PublicProduct) =>
    `${navOf(deps, product, 'identity').boardUrl}/identity`;
  const codeUid = (visitor: Visitor) => `board:${visitor.id}`;

  router.get(
    '/:slug/:key/identity',
    route(async (req, res, product) => {
      let visitor = cookieVisitor(deps, req);
      if (!visitor) {
        visitor = deps.tokens.newVisitor();
        setVisitorCookie(deps, res, visitor);
      }
      res.setHeader('Cache-Control', 'private, no-store');
      const nav = navOf(deps, product, 'identity');
      const auth = { csrf: deps.tokens.csrf(visitor) };
      sendPage(
        res,
        200,
        documentOf(<EmailForm nav={nav} action={identityAction(product)} auth={auth} />),
      );
    }),
  );

  router.post(
    '/:slug/:key/identity',
    route(async (req, res, product) => {
      const nav = navOf(deps, product, 'identity');
      const form = await readForm(req, res, EmailFormBody);
      const visitor = visitorFor(req, res, form.csrf);
      const email = form.email.trim().toLowerCase();
      const ip = ipOf(deps, req);
      const wait = await deps.throttle.beforeIssue(email, ip);
      if (wait !== null)
        throw new ResourceExhausted(`too many codes; try again in ${wait} s`, wait);
      const perVisitor = await deps.guard.codes.take(visitor.id);
      if (!perVisitor.allowed) {
        const seconds = perVisitor.retryAfterSeconds;
        throw new ResourceExhausted(`too many codes; try again in ${seconds} s`, seconds);
      }
      const code = await deps.codes.issue(codeUid(visitor), email);
      await deps.mail.send({
        to: email,
        subject: `Your code for ${product.name} feedback`,
        text: `Your code is ${code}. It is valid for 10 minutes.\n\nIf you did not ask for it, ignore this message.`,
      });
      res.setHeader('Cache-Control', 'private, no-store');
      const auth = { csrf: deps.tokens.csrf(visitor) };
      sendPage(
        res,
        200,
        documentOf(
          <CodeForm
            nav={nav}
            action={`${identityAction(product)}/code`}
            auth={auth}
            email={email}
          />,
        ),
      );
    }),
  );

  router.post(
    '/:slug/:key/identity/code',
    route(async (req, res, product) => {
      const nav = navOf(deps, product, 'identity');
      const form = await readForm(req, res, CodeFormBody);
      const visitor = visitorFor(req, res, form.csrf);
      const auth = { csrf: deps.tokens.csrf(visitor) };
      const email = await deps.codes.pendingEmail(codeUid(visitor));
      const again = (error: string) =>
        sendPage(
          res,
          400,
          documentOf(
            <EmailForm nav={nav} action={identityAction(product)} auth={auth} error={error} />,
          ),
        );
      if (!email) return again('That code has expired. Ask for a new one.');
      const ip = ipOf(deps, req);
      const locked = await deps.throttle.beforeCheck(email, ip);
      if (locked !== null)
        throw new ResourceExhausted(`too many wrong codes; try again in ${locked} s`, locked);
      const check = await deps.codes.check(codeUid(visitor), form.code);
      if (check.status === 'ok') {
        setVisitorCookie(deps, res, { id: visitor.id, email: check.email });
        res.redirect(303, nav.boardUrl);
        return;
      }
      if (check.status === 'expired') return again('That code has expired. Ask for a new one.');
      const lockout = await deps.throttle.afterWrong(email, ip);
      if (lockout !== null)
        throw new ResourceExhausted(`too many wrong codes; try again in ${lockout} s`, lockout);
      const left = check.attemptsLeft;
      sendPage(
        res,
        400,
        documentOf(
          <CodeForm
            nav={nav}
            action={`${identityAction(product)}/code`}
            auth={auth}
            email={email}
            error={
              left > 0
                ? `That code is not right; ${left} ${left === 1 ? 'try' : 'tries'} left.`
                : 'That code is not right. Ask for a new one.'
            }
          />,
        ),
      );
    }),
  );
  return router;
}
