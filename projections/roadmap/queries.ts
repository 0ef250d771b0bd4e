/**
 * The public roadmap of a product, read from the items read model: what is planned, in progress
 * and shipped. Merged items are left out (they live on in their survivor); `via` and other
 * internals never appear, since the public page never shows them.
 */
import type { ItemStatus } from '../../commands/item/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { itemsOf } from '../items/document.js';
import { itemsFilter } from '../items/queries.js';

export const ROADMAP_STATUSES = ['planned', 'in-progress', 'shipped'] as const;
export type RoadmapStatus = (typeof ROADMAP_STATUSES)[number];
/** each column shows at most this many entries */
export const ROADMAP_COLUMN_LIMIT = 100;

export interface RoadmapEntry {
  id: string;
  title: string;
  status: ItemStatus;
  plusOneCount: number;
  statusChangedAt: number | null;
}

/**
 * Planned and in-progress items are ordered by demand (+1s, then newest first); shipped items by
 * when they shipped, newest first.
 */
export async function roadmapOf(
  store: ReadStore,
  query: { workspaceId: string; productKey: string },
): Promise<Record<RoadmapStatus, RoadmapEntry[]>> {
  const column = async (status: RoadmapStatus) => {
    const docs = await itemsOf(store).find(
      itemsFilter(query.workspaceId, query.productKey, { status }),
      {
        sort:
          status === 'shipped' ? { statusChangedAt: -1, rank: 1 } : { plusOneCount: -1, rank: 1 },
        limit: ROADMAP_COLUMN_LIMIT,
      },
    );
    return docs.map((doc) => ({
      id: doc.id,
      title: doc.title,
      status: doc.status,
      plusOneCount: doc.plusOneCount,
      statusChangedAt: doc.statusChangedAt,
    }));
  };
  const [planned, inProgress, shipped] = await Promise.all(ROADMAP_STATUSES.map(column));
  return { planned: planned!, 'in-progress': inProgress!, shipped: shipped! };
}
