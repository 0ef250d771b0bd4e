/**
 * The board's signed values (issue 12 items 2, 5 and 6), all HMAC-SHA256 under a key derived
 * from the service secret, compared in constant time:
 *
 *  - visitor: who a board visitor is — a random id, and the e-mail address once the visitor
 *    proved it with a code (never merely typed). The board keeps it in an HttpOnly SameSite=Lax
 *    cookie; the widget, which has no cookie on the board's origin, keeps the same token in the
 *    host page's localStorage and sends it back in the body. It carries its own expiry, the
 *    cookie's Max-Age from when it was sealed (VISITOR_MAX_AGE_S), checked on every use: a copy
 *    of the value outlives the browser's cookie by no more than that, nor a sign-out, which
 *    retires the visitor's id (sign-outs.ts). A value without one (sealed
 *    before it was added) or past it opens as none, and the visitor is a new anonymous one.
 *  - csrf: bound to the visitor id; every cookie-authenticated form carries it.
 *  - form: when a capture form was shown, and where (the board's own page or the widget), so a
 *    form sent sooner than the minimum fill time, or a stale one, is refused.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface Visitor {
  id: string;
  /** an address the visitor proved — with a code, or through the upstream provider; null until then */
  email: string | null;
  /** true: the address came from the upstream OpenID provider (tier `google`) */
  upstream?: boolean;
}

export type FormSource = 'board' | 'widget';

export interface FormStamp {
  source: FormSource;
  issuedAt: number;
}

/** how long a sealed visitor lasts, and the cookie's Max-Age: a year */
export const VISITOR_MAX_AGE_S = 365 * 24 * 60 * 60;

/** a form older than this is refused as stale (the page is reloaded for a fresh one) */
export const FORM_MAX_AGE_MS = 2 * 24 * 60 * 60 * 1000;

export interface BoardTokens {
  newVisitor(): Visitor;
  sealVisitor(visitor: Visitor): string;
  openVisitor(token: unknown): Visitor | null;
  csrf(visitor: Visitor): string;
  checkCsrf(visitor: Visitor, token: unknown): boolean;
  /** a form shown now (or at `issuedAt`) for the product (`<workspaceId>.<KEY>`) */
  form(source: FormSource, product: string, issuedAt?: number): string;
  openForm(token: unknown, product: string): FormStamp | null;
}

const equal = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function createBoardTokens(secret: string, now: () => number): BoardTokens {
  const key = createHmac('sha256', secret).update('public-board').digest();
  const mac = (kind: string, payload: string) =>
    createHmac('sha256', key).update(`${kind}\0${payload}`).digest('base64url');
  const seal = (kind: string, value: unknown): string => {
    const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
    return `${payload}.${mac(kind, payload)}`;
  };
  const open = (kind: string, token: unknown): unknown => {
    if (typeof token !== 'string' || token.length > 1024) return null;
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return null;
    if (!equal(signature, mac(kind, payload))) return null;
    try {
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
  };

  const forms = new Map<string, { second: number; token: string }>();
  // a form names its product by a keyed digest: the token sits in public pages, and the
  // product's internal id (its workspace id) is none of a visitor's business
  const productTag = (product: string) => mac('product', product).slice(0, 22);

  return {
    newVisitor: () => ({ id: randomBytes(12).toString('base64url'), email: null }),
    sealVisitor: (visitor) =>
      seal('visitor', {
        v: visitor.id,
        e: visitor.email,
        ...(visitor.upstream ? { g: 1 } : {}),
        // expires at (seconds)
        x: Math.floor(now() / 1000) + VISITOR_MAX_AGE_S,
      }),
    openVisitor(token) {
      const value = open('visitor', token) as {
        v?: unknown;
        e?: unknown;
        g?: unknown;
        x?: unknown;
      } | null;
      if (!value || typeof value.v !== 'string' || value.v.length > 64) return null;
      if (typeof value.x !== 'number' || value.x * 1000 <= now()) return null;
      const email = typeof value.e === 'string' ? value.e : null;
      return { id: value.v, email, ...(email && value.g === 1 ? { upstream: true } : {}) };
    },
    csrf: (visitor) => mac('csrf', visitor.id),
    checkCsrf: (visitor, token) =>
      typeof token === 'string' && equal(token, mac('csrf', visitor.id)),
    form(source, product, at) {
      if (at !== undefined) return seal('form', { s: source, p: productTag(product), t: at });
      // one token per product and second, stamped with the second's last millisecond: signed
      // once a second instead of once a view, and never more lenient than the true time
      const second = Math.floor(now() / 1000);
      const key = `${source}\0${product}`;
      const hit = forms.get(key);
      if (hit?.second === second) return hit.token;
      const token = seal('form', { s: source, p: productTag(product), t: second * 1000 + 999 });
      if (forms.size >= 10_000) forms.clear();
      forms.set(key, { second, token });
      return token;
    },
    openForm(token, product) {
      const value = open('form', token) as { s?: unknown; p?: unknown; t?: unknown } | null;
      if (!value || typeof value.p !== 'string' || typeof value.t !== 'number') return null;
      if (!equal(value.p, productTag(product))) return null;
      if (value.s !== 'board' && value.s !== 'widget') return null;
      return { source: value.s, issuedAt: value.t };
    },
  };
}
