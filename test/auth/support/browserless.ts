/**
 * Drives the sign-in and consent pages over plain HTTP like a browser would: manual redirects,
 * a cookie jar, forms parsed out of the HTML, the code read from the dev mailbox file.
 */
import fs from 'node:fs';

export class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export async function request(
  jar: CookieJar,
  url: string,
  form?: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const res = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      ...headers,
      cookie: jar.header(),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  jar.store(res);
  return res;
}

/** the form whose action ends with `suffix`: its absolute action URL and hidden fields */
export function formIn(
  html: string,
  base: string,
  suffix: string,
): { action: string; fields: Record<string, string> } {
  const forms = [...html.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)];
  const form = forms.find((m) => (m[1] ?? '').endsWith(suffix));
  if (!form) throw new Error(`no form ending in ${suffix} in:\n${html}`);
  const fields: Record<string, string> = {};
  for (const m of (form[2] ?? '').matchAll(
    /<input type="hidden" name="([^"]+)" value="([^"]*)">/g,
  )) {
    fields[m[1] as string] = (m[2] as string).replaceAll('&amp;', '&');
  }
  return { action: new URL((form[1] as string).replaceAll('&amp;', '&'), base).href, fields };
}

export function latestCode(mailboxPath: string, email: string): string {
  const lines = fs.readFileSync(mailboxPath, 'utf8').trim().split('\n').reverse();
  for (const line of lines) {
    const msg = JSON.parse(line) as { to: string; text: string };
    const code = msg.to === email ? /\b(\d{6})\b/.exec(msg.text)?.[1] : undefined;
    if (code) return code;
  }
  throw new Error(`no code for ${email}`);
}

async function follow(jar: CookieJar, res: Response, base: string): Promise<Response> {
  let current = res;
  for (let hops = 0; hops < 10 && current.status >= 300 && current.status < 400; hops++) {
    const next = new URL(current.headers.get('location') ?? '', base).href;
    if (new URL(next).pathname === '/cb') return current;
    current = await request(jar, next);
  }
  return current;
}

/**
 * From an authorization URL to the redirect back to the client (`/cb?...`): signs in with an
 * e-mail code if the jar has no session, then approves (or denies) consent when asked.
 * Returns the callback URL.
 */
export async function authorizeOverHttp(opts: {
  authUrl: string;
  base: string;
  email: string;
  mailboxPath: string;
  jar?: CookieJar;
  approve?: boolean;
  /** where the sign-in code comes from; default: the dev mailbox file */
  codeFor?: (email: string) => Promise<string>;
  /** sees each page's HTML before it is answered */
  onPage?: (html: string) => void;
  /** sent with the code (e.g. `x-correlation-id`) */
  codeHeaders?: Record<string, string>;
}): Promise<URL> {
  const jar = opts.jar ?? new CookieJar();
  let res = await follow(jar, await request(jar, opts.authUrl), opts.base);
  for (let step = 0; step < 6; step++) {
    const location = res.headers.get('location');
    if (location && new URL(location, opts.base).pathname === '/cb')
      return new URL(location, opts.base);
    const html = await res.text();
    if (res.status !== 200)
      throw new Error(`unexpected ${res.status} at ${res.url}: ${html.slice(0, 500)}`);
    opts.onPage?.(html);
    if (html.includes('/email"')) {
      const form = formIn(html, opts.base, '/email');
      res = await follow(
        jar,
        await request(jar, form.action, { ...form.fields, email: opts.email }),
        opts.base,
      );
    } else if (html.includes('/code"')) {
      const form = formIn(html, opts.base, '/code');
      const code = opts.codeFor
        ? await opts.codeFor(opts.email)
        : latestCode(opts.mailboxPath, opts.email);
      const sent = await request(jar, form.action, { ...form.fields, code }, opts.codeHeaders);
      res = await follow(jar, sent, opts.base);
    } else if (html.includes('/confirm"')) {
      const form = formIn(html, opts.base, opts.approve === false ? '/abort' : '/confirm');
      res = await follow(jar, await request(jar, form.action, form.fields), opts.base);
    } else {
      throw new Error(`unexpected page:\n${html}`);
    }
  }
  throw new Error('authorization did not finish');
}

/**
 * Where an authorization error sends the client: the redirect itself (a client a person
 * approved), or the error page's link back (any other: error-redirects.ts, RFC 9700 §4.11.2).
 */
export async function errorSentBack(res: Response, base: string): Promise<URL> {
  const location = res.headers.get('location');
  if (location) return new URL(location, base);
  const html = await res.text();
  const back = /id="back" href="([^"]+)"/.exec(html)?.[1];
  if (res.status !== 400 || !back) throw new Error(`no error sent back: ${res.status} ${html}`);
  return new URL(back.replaceAll('&amp;', '&'));
}
