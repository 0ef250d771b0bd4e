/**
 * The board the triage tests share: workspace `acme-co` owned by `owner` (admin), with `member`
 * (member role) and `outsider` (a maker of another workspace only); products APP (public) and
 * SEC (private). Paths are built here so each test reads as the spec's route table.
 */
import { expect } from 'chai';
import type { ApiResponse, FeedbackHarness, Maker, Workspace } from '../support/harness.js';
import { startFeedback } from '../support/harness.js';
import { submitFeedback } from '../../../src/feedback/actions/index.js';

export const SLUG = 'acme-co';

export interface Board {
  fb: FeedbackHarness;
  ws: Workspace;
  owner: Maker;
  member: Maker;
  outsider: Maker;
}

export async function startBoard(): Promise<Board> {
  const fb = await startFeedback();
  const owner = await fb.createMaker('owner@acme.io', 'laptop');
  const member = await fb.createMaker('member@acme.io', 'cli');
  const outsider = await fb.createMaker('outsider@else.io', 'assistant');
  const ws = await fb.createWorkspace(owner, { slug: SLUG, name: 'Acme' });
  await fb.addMember(ws, member.userId, 'member');
  await fb.createProduct(ws, { key: 'APP', name: 'Acme App', visibility: 'public' });
  await fb.createProduct(ws, { key: 'SEC', name: 'Secret', visibility: 'private' });
  return { fb, ws, owner, member, outsider };
}

export const products = (slug = SLUG) => `/v1/workspaces/${slug}/products`;
export const product = (key = 'APP', slug = SLUG) => `${products(slug)}/${key}`;
export const items = (key = 'APP', slug = SLUG) => `${product(key, slug)}/items`;
export const item = (itemKey: string, slug = SLUG) =>
  `${items(itemKey.split('-')[0], slug)}/${itemKey}`;

/** Spec "Errors": every 4xx is exactly `{error, code}`. */
export function expectError(res: ApiResponse, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(status);
  expect(res.body).to.have.all.keys('error', 'code');
  expect(res.body.code).to.equal(code);
}

export const expect400 = (res: ApiResponse) => expectError(res, 400, 'invalid-argument');
export const expect404 = (res: ApiResponse) => expectError(res, 404, 'not-found');

/** A string of exactly `n` characters. */
export const chars = (n: number, c = 'x') => c.repeat(n);

/**
 * `count` items in `productKey`, fast: straight through the submit action (one requester, so
 * the person is registered once), waiting for the projections once at the end. Sequential on
 * purpose: every submission allocates its number on the product's stream, so parallel ones only
 * collide and retry.
 */
export async function seedItems(
  board: Board,
  count: number,
  productKey = 'APP',
  body = (i: number) => `Seeded feedback number ${i}`,
): Promise<string[]> {
  const { fb, ws } = board;
  const deps = fb.deps();
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const { itemKey } = await submitFeedback(deps, fb.context(), {
      workspaceId: ws.workspaceId,
      productKey,
      body: body(i),
      requester: { email: 'seed@example.com', displayName: 'Seed' },
    });
    keys.push(itemKey);
  }
  await fb.caughtUp();
  return keys;
}
