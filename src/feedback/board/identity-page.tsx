/**
 * The identity page (identity-routes.ts): the address form — with "Sign in with …" when an
 * upstream provider is configured, and "Not you? Sign out" for a confirmed visitor — or, while a
 * code is pending for the visitor, the form asking for that code. Never cached: it names the
 * visitor's address.
 */
import type { Response } from 'express';
import type { BoardDeps } from './context.js';
import { navOf } from './nav.js';
import type { PublicProduct } from './queries.js';
import { sendPage } from './respond.js';
import type { Visitor } from './tokens.js';
import { CodeForm, EmailForm } from './views/identity.js';
import { documentOf } from './views/layout.js';

/** where the identity forms post: `/{slug}/{key}/identity` (and `/code`, `/sign-out` under it) */
export const identityAction = (deps: BoardDeps, product: PublicProduct): string =>
  `${navOf(deps, product, 'identity').boardUrl}/identity`;

/** the address form (and the upstream button), or the code form for `email` */
export function sendIdentityPage(
  deps: BoardDeps,
  res: Response,
  status: number,
  product: PublicProduct,
  visitor: Visitor,
  form: { email?: string; error?: string; typed?: string },
): void {
  const nav = navOf(deps, product, 'identity');
  const auth = { csrf: deps.tokens.csrf(visitor) };
  const action = identityAction(deps, product);
  res.setHeader('Cache-Control', 'private, no-store');
  sendPage(
    res,
    status,
    documentOf(
      form.email ? (
        <CodeForm
          nav={nav}
          action={`${action}/code`}
          anotherUrl={`${action}?another`}
          auth={auth}
          email={form.email}
          error={form.error}
        />
      ) : (
        <EmailForm
          nav={nav}
          action={action}
          auth={auth}
          error={form.error}
          typed={form.typed}
          upstream={deps.upstream?.name ?? null}
          confirmed={visitor.email}
          signOutAction={`${action}/sign-out`}
        />
      ),
    ),
  );
}
