/**
 * `npm start -- --demo`: on an EMPTY data directory, seed a demo workspace (a maker, two
 * products, the example items with statuses, tags and +1s) and mint a personal token, so a
 * newcomer can call the API at once. On a data directory that already holds events it seeds
 * nothing and says so — running it twice never duplicates the demo or touches real data — unless
 * what it holds is a demo whose seeding was cut short (a Ctrl-C while it ran): the demo maker
 * exists and was never given a token, the last step. Then it finishes that demo: each step finds
 * what an earlier run made (the maker, the workspace, the products, the items: the import skips
 * the items it already has) and makes the rest.
 */
import { fileURLToPath } from 'node:url';
import type { Config } from '../config/schema.js';
import {
  createProduct,
  createToken,
  createUser,
  createWorkspace,
} from '../feedback/actions/index.js';
import { getProduct } from '../../projections/products/queries.js';
import { tokensOf } from '../../projections/tokens/projector.js';
import { userByEmail } from '../../projections/users/queries.js';
import { membershipBySlug, workspaceBySlug } from '../../projections/workspaces/queries.js';
import type { ReadStore } from '../readstore/types.js';
import { parseImportRows, readImportFile } from './items/file.js';
import { importItems } from './items/importer.js';
import { withServerSession } from './session.js';

export const DEMO = {
  email: 'demo@example.com',
  name: 'Demo Maker',
  slug: 'demo-board',
  workspace: 'Demo Board',
} as const;

const EXAMPLE_ITEMS = fileURLToPath(new URL('../../examples/items.json', import.meta.url));

const DEMO_PRODUCTS = [
  { key: 'WEB', name: 'Web app', visibility: 'public' },
  { key: 'API', name: 'Public API', visibility: 'private' },
] as const;

const API_ITEMS = [
  {
    title: 'Webhooks for status changes',
    body: 'Call our endpoint whenever an item changes status, so our CRM stays in sync.',
    requester: { email: 'crm@partner.example', displayName: 'Partner CRM team' },
    status: 'planned',
    tags: ['api', 'integrations'],
    plusOnes: 4,
  },
  {
    body: 'Please document the error codes of every endpoint with an example response.',
    requester: { displayName: 'API user' },
    tags: ['docs'],
    plusOnes: 2,
  },
];

/** What to print once the server listens, or null when the data directory was not empty. */
export type DemoNotice = ((feedbackUrl: string | undefined) => string) | null;

/**
 * Seeded as the server it precedes, holding the data directory (src/platform/data-dir-lock.ts):
 * a directory another server serves is refused before anything is written into it, not after.
 */
export async function seedDemoIfEmpty(config: Config): Promise<DemoNotice> {
  return withServerSession(config, async ({ stores, deps, context, caughtUp }) => {
    const { readStore } = stores;
    const started = (await stores.eventStore.headPosition()) > 0n;
    if (started && !(await unfinishedDemo(readStore))) return null;
    const userId =
      (await userByEmail(readStore, DEMO.email))?.userId ??
      (await createUser(deps, context(), { email: DEMO.email, displayName: DEMO.name })).userId;
    const workspaceId =
      (await workspaceBySlug(readStore, DEMO.slug))?.workspaceId ??
      (
        await createWorkspace(deps, context(), {
          slug: DEMO.slug,
          name: DEMO.workspace,
          ownerId: userId,
        })
      ).workspaceId;
    for (const product of DEMO_PRODUCTS) {
      if (await getProduct(readStore, { workspaceId, key: product.key })) continue;
      await createProduct(deps, context(), { workspaceId, ...product });
    }
    const seeded = [
      await importItems(
        deps,
        context('import'),
        { workspaceId, productKey: 'WEB' },
        readImportFile(EXAMPLE_ITEMS),
      ),
      await importItems(
        deps,
        context('import'),
        { workspaceId, productKey: 'API' },
        parseImportRows(API_ITEMS, 'demo API items'),
      ),
    ];
    // an unfinished demo's items from its first run count too (the import skipped them)
    const items = seeded.reduce((n, r) => n + r.imported.length + r.skipped.length, 0);
    // createToken asks the memberships read model whether the owner is a maker
    await caughtUp();
    const { token } = await createToken(deps, context(), { ownerId: userId, name: 'demo' });
    return (url = 'http://127.0.0.1:3000') =>
      [
        `Demo data seeded: workspace "${DEMO.slug}" with products WEB (public) and API (private),`,
        `${items} items, maker ${DEMO.email}. Personal API token (shown once):`,
        '',
        `  ${token}`,
        '',
        'Try:',
        `  curl -H "Authorization: Bearer ${token}" ${url}/v1/workspaces/${DEMO.slug}/products/WEB/items`,
        `API reference: ${url}/docs`,
      ].join('\n');
  });
}

/**
 * A demo whose seeding was cut short: the demo maker exists, is a member of the demo workspace if
 * there is one, and has never had a token (revoked ones count: a finished demo's may have been).
 */
async function unfinishedDemo(readStore: ReadStore): Promise<boolean> {
  const maker = await userByEmail(readStore, DEMO.email);
  if (!maker) return false;
  if (await tokensOf(readStore).findOne({ ownerId: maker.userId })) return false;
  if (!(await workspaceBySlug(readStore, DEMO.slug))) return true;
  return (await membershipBySlug(readStore, { slug: DEMO.slug, userId: maker.userId })) !== null;
}
