/**
 * A board visitor over plain HTTP (no browser): keeps the board's cookie like a browser would,
 * reads form fields out of the pages, posts forms the way an HTML form without JavaScript does
 * (application/x-www-form-urlencoded, redirects not followed so the test sees them).
 */
import { readFileSync } from 'node:fs';
import { latestCode } from '../../auth/support/browserless.js';
import { type FeedbackHarness, startFeedback } from '../support/harness.js';

export interface Page {
  status: number;
  headers: Headers;
  text: string;
}

export class BoardVisitor {
  cookie = '';
  constructor(readonly base: string) {}

  private remember(res: Response): void {
    const set = res.headers.get('set-cookie');
    const match = set && /board_visitor=([^;]*)/.exec(set);
    if (match) this.cookie = `board_visitor=${match[1]}`;
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    const res = await fetch(new URL(path, this.base), {
      headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...headers },
      redirect: 'manual',
    });
    this.remember(res);
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  async post(
    path: string,
    fields: Record<string, string>,
    options: { json?: boolean; headers?: Record<string, string> } = {},
  ): Promise<Page> {
    const res = await fetch(new URL(path, this.base), {
      method: 'POST',
      headers: {
        'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded',
        ...(options.json ? { accept: 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...options.headers,
      },
      body: options.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    this.remember(res);
    return { status: res.status, headers: res.headers, text: await res.text() };
  }
}

/** The value of the first form field named `name` in a page. */
export function field(html: string, name: string): string {
  const tag = new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`).exec(html);
  if (!tag) throw new Error(`no field ${name} in the page`);
  const value = /\bvalue="([^"]*)"/.exec(tag[0]);
  return (value?.[1] ?? '').replaceAll('&amp;', '&');
}

export const SLUG = 'acme-co';

export interface BoardWorld {
  fb: FeedbackHarness;
  owner: { token: string; userId: string };
  ws: { workspaceId: string; slug: string };
  boardPath: string;
}

/** The feedback service with one public product (APP) and one private one (SEC). */
export async function startBoardWorld(env: Record<string, string> = {}): Promise<BoardWorld> {
  const fb = await startFeedback({ env });
  const owner = await fb.createMaker('owner@acme.io', 'laptop');
  const ws = await fb.createWorkspace(owner, { slug: SLUG, name: 'Acme' });
  await fb.createProduct(ws, { key: 'APP', name: 'Acme App', visibility: 'public' });
  await fb.createProduct(ws, { key: 'SEC', name: 'Secret', visibility: 'private' });
  return { fb, owner, ws, boardPath: `/${SLUG}/APP` };
}

/** Waits out the minimum fill time on the harness clock. */
export const fillTime = (world: BoardWorld) => world.fb.clock.advance(4_000);

/** How many mails were sent to `email` so far. */
export function mailsTo(world: BoardWorld, email: string): number {
  const lines = readFileSync(world.fb.mailboxPath, 'utf8').trim().split('\n');
  return lines.filter((line) => line && (JSON.parse(line) as { to: string }).to === email).length;
}

/** The visitor confirms `email` with the code sent to it, as a form without JavaScript does. */
export async function confirmEmail(world: BoardWorld, v: BoardVisitor, email: string) {
  const form = await v.get(`${world.boardPath}/identity`);
  await v.post(`${world.boardPath}/identity`, { csrf: field(form.text, 'csrf'), email });
  const asked = await v.get(`${world.boardPath}/identity`);
  const code = latestCode(world.fb.mailboxPath, email);
  const done = await v.post(`${world.boardPath}/identity/code`, {
    csrf: field(asked.text, 'csrf'),
    code,
  });
  if (done.status !== 303) throw new Error(`confirming ${email} answered ${done.status}`);
}

/** Posts the board's capture box (read from the board page) as a form without JavaScript. */
export async function postBoardForm(
  world: BoardWorld,
  v: BoardVisitor,
  fields: Record<string, string>,
  options: { json?: boolean; wait?: boolean } = {},
): Promise<Page> {
  const board = await v.get(world.boardPath);
  if (options.wait !== false) fillTime(world);
  const form = { formToken: field(board.text, 'formToken'), csrf: field(board.text, 'csrf') };
  return v.post(`/capture/${SLUG}/APP`, { ...form, ...fields }, { json: options.json });
}

/** The item key a capture answer names (303 Location, or JSON itemId). */
export const filedKey = (answer: Page): string =>
  answer.status === 303
    ? answer.headers.get('location')!.split('/').pop()!
    : (JSON.parse(answer.text) as { itemId: string }).itemId;
