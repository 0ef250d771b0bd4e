/**
 * The capture endpoint (issue 12 item 3): `POST /capture/{slug}/{key}`, unauthenticated, JSON or
 * a plain form, CORS open without credentials — the board's own capture box, the widget and
 * in-app capture boxes all post here; `GET` hands out a form token (and says whether the board
 * exists). An item posted from the board's own page carries no `via`; from anywhere else (the
 * widget) `via: widget`. Checks, in order: the honeypot, the form token and its minimum fill
 * time, the visitor's CSRF token when the board's cookie came along, then the shared guard
 * (capture/file.ts). Nothing refused is appended.
 */
import { requestIdsFor } from '../../http/respond.js';
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { InvalidArgument, NotFound, PermissionDenied } from '../../../commands/shared/errors.js';
import { captureFeedback } from '../capture/file.js';
import { CAPTURE_BODY_MAX, CAPTURE_TITLE_MAX } from '../capture/guard.js';
import { readForm } from './body.js';
import { answerRefusedCapture } from './capture-refusal.js';
import {
  type BoardDeps,
  boardUrlOf,
  cookieVisitor,
  ipOf,
  requesterOf,
  setVisitorCookie,
  visitorOf,
  wantsJson,
} from './context.js';
import { navOf } from './nav.js';
import { type PublicProduct, publicProduct } from './queries.js';
import { answerError, loadsNothing, sendOn } from './respond.js';
import { FORM_MAX_AGE_MS } from './tokens.js';

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

const CaptureForm = z.object({
  title: z.preprocess(blankToNull, z.string().max(CAPTURE_TITLE_MAX).nullable().optional()),
  body: z.string().trim().min(1, 'body must not be empty').max(CAPTURE_BODY_MAX),
  email: z.preprocess(blankToNull, z.email().max(254).nullable().optional()),
  displayName: z.preprocess(blankToNull, z.string().max(100).nullable().optional()),
  formToken: z.string().min(1, 'the form token is missing; reload the page').max(1024),
  website: z.string().max(2000).optional(),
  visitor: z.string().max(1024).optional(),
  csrf: z.string().max(200).optional(),
});

function openCors(res: Response): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.setHeader('Cache-Control', 'no-store');
}

export function mountCapture(router: Router, deps: BoardDeps): void {
  const publicOrigin = new URL(deps.publicBaseUrl).origin;

  router.options('/capture/:slug/:key', (_req, res) => {
    openCors(res);
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  });

  router.get('/capture/:slug/:key', async (req, res) => {
    openCors(res);
    loadsNothing(res);
    try {
      const product = await publicProduct(deps.readStore, req.params.slug, req.params.key);
      if (!product) throw new NotFound('no public product at this address');
      res.json({
        product: { name: product.name },
        boardUrl: boardUrlOf(deps, product.slug, product.key),
        formToken: deps.tokens.form('widget', product.scope),
      });
    } catch (error) {
      answerError(deps, req, res, error, null, true);
    }
  });

  router.post('/capture/:slug/:key', async (req, res) => {
    openCors(res);
    loadsNothing(res);
    let product: PublicProduct | null = null;
    try {
      product = await publicProduct(deps.readStore, req.params.slug, req.params.key);
      if (!product) throw new NotFound('no public product at this address');
      await capture(deps, req, res, product, publicOrigin);
    } catch (error) {
      try {
        if (product && (await answerRefusedCapture(deps, req, res, product, error))) return;
      } catch (failed) {
        deps.logger.warn('a refused capture form could not be shown again', {
          error: String(failed),
        });
      }
      answerError(deps, req, res, error, product ? navOf(deps, product, 'board') : null);
    }
  });
}

async function capture(
  deps: BoardDeps,
  req: Request,
  res: Response,
  product: PublicProduct,
  publicOrigin: string,
): Promise<void> {
  const form = await readForm(req, res, CaptureForm);
  if (form.website?.trim()) throw new InvalidArgument('this submission was refused as spam');
  const stamp = deps.tokens.openForm(form.formToken, product.scope);
  const now = deps.now();
  if (!stamp || now - stamp.issuedAt > FORM_MAX_AGE_MS) {
    throw new InvalidArgument('the form is out of date; reload the page and send it again');
  }
  const minFill = deps.guard.limits.minFillSeconds * 1000;
  if (now - stamp.issuedAt < minFill) {
    throw new InvalidArgument('sent too fast; wait a few seconds and send it again');
  }
  const fromCookie = await cookieVisitor(deps, req);
  if (fromCookie && !deps.tokens.checkCsrf(fromCookie, form.csrf ?? req.get('x-csrf-token'))) {
    throw new PermissionDenied('the page is out of date; reload it and send the form again');
  }
  const visitor = fromCookie ?? (await visitorOf(deps, form.visitor)) ?? deps.tokens.newVisitor();
  // an Origin of "null" (privacy settings, a no-referrer page) says nothing, like none at all;
  // a browser's Sec-Fetch-Site does: another site's post (a "null" Origin from a sandboxed
  // frame) is not the board's, so it files as the widget does and never sets the board's cookie
  const origin = req.get('origin');
  const site = req.get('sec-fetch-site');
  const fromBoard =
    stamp.source === 'board' &&
    site !== 'cross-site' &&
    site !== 'same-site' &&
    (!origin || origin === 'null' || origin === publicOrigin);
  const requester = requesterOf(visitor, form);
  const base = { now, ...requestIdsFor(req, res) };
  const actor = await deps.personIds.resolve(product.workspaceId, requester, {
    actor: null,
    ...base,
  });
  const captured = await captureFeedback(
    deps,
    { actor, ...(fromBoard ? {} : { via: 'widget' }), ...base },
    {
      workspaceId: product.workspaceId,
      productKey: product.key,
      title: form.title ?? null,
      body: form.body,
      requester,
      asker: { ip: ipOf(deps, req), person: `visitor:${visitor.id}` },
    },
  );
  if (captured.position !== null) await deps.waitFor(captured.position);
  if (fromBoard && !fromCookie) setVisitorCookie(deps, res, visitor);
  const url = `${boardUrlOf(deps, product.slug, product.key)}/items/${captured.itemKey}`;
  if (wantsJson(req)) {
    res.json({
      itemId: captured.itemKey,
      title: captured.title,
      status: captured.status,
      url,
      // the widget keeps its visitor token itself; the board's is its HttpOnly cookie, which an
      // answer readable by the page's scripts must not hand out (the same sealed value)
      ...(fromBoard || fromCookie ? {} : { visitor: deps.tokens.sealVisitor(visitor) }),
      ...(fromBoard ? { csrf: deps.tokens.csrf(visitor) } : {}),
    });
    return;
  }
  sendOn(res, 303, url);
}
