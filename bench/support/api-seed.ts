/**
 * The board bench:api measures, written through the actions the API uses: a maker, workspace
 * `bench-co`, public product BNC with 50 items (statuses, tags, a few +1s) and a personal token.
 */
import { workspaceBySlug } from '../../projections/workspaces/queries.js';
import { withSession } from '../../src/cli/session.js';
import { parseImportRows } from '../../src/cli/items/file.js';
import { importItems } from '../../src/cli/items/importer.js';
import type { Config } from '../../src/config/schema.js';
import {
  addMember,
  createProduct,
  createToken,
  createUser,
  createWorkspace,
} from '../../src/feedback/actions/index.js';

export const BENCH_BOARD = { slug: 'bench-co', product: 'BNC', items: 50 } as const;

const STATUSES = ['new', 'planned', 'in-progress', 'shipped', 'declined'] as const;
const TAGS = ['ui', 'api', 'mobile', 'billing', 'search', 'export'];

function benchRows(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    title: `Benchmark request ${i + 1}: make the ${TAGS[i % TAGS.length]} flow faster`,
    body:
      `Item ${i + 1}. When I open the ${TAGS[i % TAGS.length]} screen it takes a few seconds to ` +
      'load, and on a slow connection it sometimes times out. Could it load the first page ' +
      'first and the rest in the background? This would help our whole team every day.',
    requester: { email: `requester${i % 17}@example.com`, displayName: `Requester ${i % 17}` },
    status: STATUSES[i % STATUSES.length],
    tags: [TAGS[i % TAGS.length]!, TAGS[(i + 2) % TAGS.length]!],
    plusOnes: i % 4,
    createdAt: 1_735_689_600_000 + i * 3_600_000,
  }));
}

/** `slug`: another workspace than `bench-co` (a KurrentDB keeps its log between runs) */
export async function seedBenchBoard(
  config: Config,
  slug: string = BENCH_BOARD.slug,
): Promise<{ token: string; itemKeys: string[] }> {
  return withSession(config, async ({ deps, context, caughtUp }) => {
    const { userId } = await createUser(deps, context(), {
      email: `bench@${slug}.example`,
      displayName: 'Bench Maker',
    });
    const { workspaceId } = await createWorkspace(deps, context(), {
      slug,
      name: 'Bench',
      ownerId: userId,
    });
    await createProduct(deps, context(), {
      workspaceId,
      key: BENCH_BOARD.product,
      name: 'Bench product',
      visibility: 'public',
    });
    const { imported } = await importItems(
      deps,
      context('import'),
      { workspaceId, productKey: BENCH_BOARD.product },
      parseImportRows(benchRows(BENCH_BOARD.items), 'bench items'),
    );
    await caughtUp();
    const { token } = await createToken(deps, context(), { ownerId: userId, name: 'bench' });
    return { token, itemKeys: imported };
  });
}

/** Keys HAA, HAB, … for the products the spread-out submissions go to. */
export function spreadProductKeys(count: number): string[] {
  const letter = (i: number) => String.fromCharCode(65 + i);
  return Array.from({ length: count }, (_, i) => `H${letter(Math.floor(i / 26))}${letter(i % 26)}`);
}

/**
 * For the hot-spot runs: `products` more public products and `callers` makers with a token
 * each, so that submissions stay within the per-caller limit while 50 connections submit.
 */
export async function seedHotspot(
  config: Config,
  counts: { products: number; callers: number },
): Promise<{ productKeys: string[]; callerTokens: string[] }> {
  return withSession(config, async ({ deps, context, stores, caughtUp }) => {
    const workspace = await workspaceBySlug(stores.readStore, BENCH_BOARD.slug);
    if (!workspace) throw new Error('seed the bench board first');
    const productKeys = spreadProductKeys(counts.products);
    for (const key of productKeys) {
      await createProduct(deps, context(), {
        workspaceId: workspace.workspaceId,
        key,
        name: `Spread ${key}`,
        visibility: 'public',
      });
    }
    const callerTokens: string[] = [];
    for (let i = 0; i < counts.callers; i++) {
      const { userId } = await createUser(deps, context(), {
        email: `caller${i}@bench.example`,
        displayName: `Caller ${i}`,
      });
      // only makers hold personal tokens: each caller is a member of the bench workspace
      await addMember(deps, context(), {
        workspaceId: workspace.workspaceId,
        userId,
        role: 'member',
      });
      await caughtUp();
      const { token } = await createToken(deps, context(), { ownerId: userId, name: 'bench' });
      callerTokens.push(token);
    }
    return { productKeys, callerTokens };
  });
}
