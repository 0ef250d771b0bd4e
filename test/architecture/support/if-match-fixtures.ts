/**
 * One valid request per write that honours a failed If-Match through its commands
 * (`honoursIfMatch: 'commands'`), each on a resource that exists: what if-match-refusals sends
 * with an If-Match that cannot hold. The registry's schemas say what is valid but not which
 * resources must exist first (a merged item to unmerge, a shipped item to announce), so each
 * operation has its own entry; an operation without one fails the audit, never skips it.
 */
import { expect } from 'chai';
import type {
  ApiResponse,
  FeedbackHarness,
  Maker,
  Workspace,
} from '../../feedback/support/harness.js';

/** the feedback service with a workspace of two public products, its admin and a stranger */
export interface FeedbackWorld {
  fb: FeedbackHarness;
  ws: Workspace;
  /** admin of `ws`; its webhooks go in their own workspace (`owner.home`), which has no items */
  owner: Maker;
  /** a maker of another workspace: the public's rate buckets apply to what they submit */
  outsider: Maker;
}

/** one request: the path filled in, the body, and whose personal token sends it */
export interface Call {
  path: string;
  body?: unknown;
  token: string;
}

/** builds what the call needs and answers the call; run once per operation */
export type Fixture = (world: FeedbackWorld) => Promise<Call>;

let made = 0;
/** a text no earlier call used (a repeated body would fold into the earlier item) */
const fresh = (what: string) => `${what} ${++made}`;

const items = (w: FeedbackWorld) => `/v1/workspaces/${w.ws.slug}/products/APP/items`;
const hooks = (w: FeedbackWorld) => `/v1/workspaces/${w.owner.home.slug}/webhooks`;

async function newItem(w: FeedbackWorld): Promise<string> {
  const { itemKey } = await w.fb.submit(w.ws, 'APP', { body: fresh('an item') });
  return `${items(w)}/${itemKey}`;
}

/** answers `body` of a 2xx setup request (setup goes over HTTP where no seeding helper exists) */
async function made2xx<Body>(res: ApiResponse<Body>): Promise<Body> {
  expect(res.status, `setup: ${JSON.stringify(res.body)}`).to.be.within(200, 299);
  return res.body;
}

async function shippedItem(w: FeedbackWorld): Promise<string> {
  const path = await newItem(w);
  await made2xx(await w.fb.api(w.owner.token).post(`${path}/status`, { status: 'shipped' }));
  return path;
}

async function newWebhook(w: FeedbackWorld): Promise<string> {
  const body = await made2xx(
    await w.fb
      .api(w.owner.token)
      .post<{ webhook: { id: string } }>(hooks(w), { url: 'http://127.0.0.1:9/audit' }),
  );
  return `${hooks(w)}/${body.webhook.id}`;
}

const asOwner = (w: FeedbackWorld, path: string, body?: unknown): Call => ({
  path,
  body,
  token: w.owner.token,
});

export const FEEDBACK_FIXTURES: Record<string, Fixture> = {
  submit_feedback: async (w) => ({
    path: `/v1/public/${w.ws.slug}/APP/feedback`,
    body: { body: fresh('feedback from outside') },
    token: w.outsider.token,
  }),
  create_api_token: async (w) => asOwner(w, '/v1/me/tokens', { name: fresh('token') }),
  revoke_api_token: async (w) => {
    const { tokenId } = await w.fb.createToken(w.owner.userId);
    return asOwner(w, `/v1/me/tokens/${tokenId}`);
  },
  create_integration: async (w) =>
    asOwner(w, `/v1/workspaces/${w.ws.slug}/integrations`, { name: fresh('integration') }),
  revoke_integration: async (w) => {
    const path = `/v1/workspaces/${w.ws.slug}/integrations`;
    const api = w.fb.api(w.owner.token);
    const body = await made2xx(
      await api.post<{ integration: { id: string } }>(path, { name: fresh('integration') }),
    );
    return asOwner(w, `${path}/${body.integration.id}`);
  },
  update_product: async (w) =>
    asOwner(w, `/v1/workspaces/${w.ws.slug}/products/WEB`, { name: fresh('Web') }),
  update_item: async (w) => asOwner(w, await newItem(w), { title: fresh('a title') }),
  update_item_status: async (w) => asOwner(w, `${await newItem(w)}/status`, { status: 'planned' }),
  tag_item: async (w) => asOwner(w, `${await newItem(w)}/tags`, { tagIds: ['audit'] }),
  reply_to_item: async (w) => asOwner(w, `${await newItem(w)}/replies`, { body: fresh('reply') }),
  merge_items: async (w) => {
    const duplicate = (await newItem(w)).split('/').at(-1);
    return asOwner(w, `${await newItem(w)}/merge`, { mergedKeys: [duplicate] });
  },
  unmerge_items: async (w) => {
    const duplicate = (await newItem(w)).split('/').at(-1);
    const survivor = await newItem(w);
    const merge = { mergedKeys: [duplicate] };
    await made2xx(await w.fb.api(w.owner.token).post(`${survivor}/merge`, merge));
    return asOwner(w, `${survivor}/unmerge`, merge);
  },
  notify_people: async (w) => asOwner(w, `${await shippedItem(w)}/notify`, { confirm: true }),
  draft_changelog_entry: async (w) =>
    asOwner(w, `${await shippedItem(w)}/changelog`, { publish: true }),
  create_webhook: async (w) => asOwner(w, hooks(w), { url: 'http://127.0.0.1:9/audit' }),
  update_webhook: async (w) => asOwner(w, await newWebhook(w), { description: fresh('hook') }),
  delete_webhook: async (w) => asOwner(w, await newWebhook(w)),
  rotate_webhook_secret: async (w) => asOwner(w, `${await newWebhook(w)}/rotate-secret`),
};

/**
 * The notes service has no such write today (each of its writes carries an ETag and checks
 * If-Match itself): one that comes needs an entry here, and a notes world to build it in.
 */
export const NOTES_FIXTURES: Record<string, never> = {};
