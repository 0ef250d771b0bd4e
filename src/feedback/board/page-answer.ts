/**
 * How a board page is answered: from the cache when it is the same for everyone (no cookie, no
 * search) and its product's pages have a version (versions.ts) — with a weak ETag made of the
 * page's own digest, a conditional GET answering 304 — else freshly rendered as a private answer.
 * A page that changes with time as well gives a version that says when (the trending board: the
 * product's and its period's). The form token, the one value that differs per view, is put in
 * fresh every time (page-cache.ts).
 */
import type { Request, RequestHandler, Response } from 'express';
import { holdsCurrent } from './conditional.js';
import { type BoardDeps, cookieVisitor, personOfVisitor } from './context.js';
import { createPageCache, fill, TOKEN_SLOT } from './page-cache.js';
import type { PublicProduct } from './queries.js';
import { pageHeaders, sendPage } from './respond.js';
import { FORM_MAX_AGE_MS, type Visitor } from './tokens.js';
import { boardRoute } from './visitor-http.js';

/**
 * The tag carries the period the page was shown in, so a 304 confirms a page whose form token is
 * at most one period old: with a quarter of the token's lifetime, a page a browser revalidates
 * keeps at least three quarters of it (1.5 days) to be filled in.
 */
const TAG_PERIOD_MS = FORM_MAX_AGE_MS / 4;

export interface View {
  product: PublicProduct;
  visitor: Visitor | null;
  version: string | null;
  /** the moment the page shows, read once per request */
  now: number;
}

export type PageAnswers = ReturnType<typeof createPageAnswers>;

export function createPageAnswers(deps: BoardDeps) {
  const cache = createPageCache();

  function send(res: Response, type: string, body: string | Buffer): void {
    if (type.startsWith('text/html')) {
      sendPage(res, 200, body);
      return;
    }
    res.setHeader('Content-Type', type);
    res.end(body);
  }

  /** a page's 304 carries the page's own policies (respond.ts `pageHeaders`), the feed's its own */
  function notModified(res: Response, type: string): void {
    if (type.startsWith('text/html')) pageHeaders(res);
    res.status(304).end();
  }

  return {
    /**
     * a board route whose handler gets the view: product, visitor, and the version of the
     * product's pages the product was found at (product-lookup.ts), never one read after it
     */
    page(handler: (req: Request, res: Response, view: View) => Promise<void>): RequestHandler {
      return boardRoute(deps, async (req, res, product, version) => {
        const visitor = await cookieVisitor(deps, req);
        const view = { product, visitor, version, now: deps.now() };
        await handler(req, res, view);
      });
    },
    /** the visitor's person on this product's workspace (for their own +1s and items) */
    personOf(product: PublicProduct, visitor: Visitor | null): Promise<string | null> {
      return personOfVisitor(deps, product.workspaceId, visitor);
    },
    authOf(visitor: Visitor | null) {
      return { csrf: visitor ? deps.tokens.csrf(visitor) : '' };
    },
    /** `shared`: the page is the same for everyone who has no cookie; `render` embeds the token */
    async answer(
      req: Request,
      res: Response,
      view: View,
      key: string,
      shared: boolean,
      render: (formToken: string) => Promise<string>,
      type = 'text/html; charset=utf-8',
    ): Promise<void> {
      const formToken = () => deps.tokens.form('board', view.product.scope);
      res.setHeader('Vary', 'Cookie');
      if (!shared || view.version === null) {
        // a confirmed visitor's page may name their address (the capture box): never stored,
        // so Back after they sign out cannot show it (browsers keep no-store pages out of the
        // back/forward cache, or Chromium's drops them once the cookie changes)
        res.setHeader(
          'Cache-Control',
          view.visitor?.email ? 'private, no-store' : 'private, no-cache',
        );
        // no tag to compare: only `*` matches, as the page exists (RFC 9110 §13.1.2)
        if (holdsCurrent(req.headers['if-none-match'], undefined)) {
          notModified(res, type);
          return;
        }
        // a HEAD gets the GET's status and headers, no body (RFC 9110 §9.3.2): a page made for
        // this one view (a search's among them, which would run the search) is not rendered
        send(res, type, req.method === 'HEAD' ? '' : await render(formToken()));
        return;
      }
      const tenant = view.product.workspaceId;
      const page =
        cache.get(tenant, key, view.version) ??
        cache.set(tenant, key, view.version, await render(TOKEN_SLOT));
      // the page's own digest, never the version: a tag that changed with the page's
      // workspace or its other pages would say more than the page does (page-cache.ts)
      const etag = `W/"${page.digest}.${Math.floor(view.now / TAG_PERIOD_MS)}"`;
      res.setHeader('Cache-Control', view.visitor ? 'private, no-cache' : 'no-cache');
      res.setHeader('ETag', etag);
      if (holdsCurrent(req.headers['if-none-match'], etag)) {
        notModified(res, type);
        return;
      }
      send(res, type, fill(page, formToken()));
    },
  };
}
