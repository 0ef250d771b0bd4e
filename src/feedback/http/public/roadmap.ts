/**
 * get_public_roadmap: GET /v1/public/{slug}/{key}/roadmap. The spec leaves the response "not
 * shown"; this is the design: the product's name and three columns (planned, in-progress,
 * shipped) of public item summaries, at most ROADMAP_COLUMN_LIMIT each. Any valid bearer,
 * `service.public` included, no membership; a private product answers 404 to everyone outside
 * its workspace exactly like an unknown address.
 */
import { z } from 'zod';
import { NotFound } from '../../../../commands/shared/errors.js';
import { ROADMAP_COLUMN_LIMIT, roadmapOf } from '../../../../projections/roadmap/queries.js';
import { Count, ItemKey, ItemStatus, ProductKey, ProductParams } from '../schemas.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';
import { boardFor, NO_BOARD } from './board.js';

const RoadmapEntry = z
  .object({
    id: ItemKey,
    title: z.string(),
    status: ItemStatus,
    plusOneCount: Count,
    statusChangedAt: z.number().nullable(),
  })
  .strict()
  .meta({ id: 'RoadmapEntry' });

const column = z.array(RoadmapEntry).max(ROADMAP_COLUMN_LIMIT);

const PublicRoadmap = z
  .object({
    product: z.object({ id: ProductKey, name: z.string() }).strict(),
    columns: z.object({ planned: column, 'in-progress': column, shipped: column }).strict(),
  })
  .strict()
  .meta({ id: 'PublicRoadmap' });

export function roadmapOperation(deps: FeedbackHttpDeps): FeedbackOperation {
  return defineFeedbackOp({
    id: 'get_public_roadmap',
    method: 'get',
    path: '/v1/public/{slug}/{key}/roadmap',
    summary: "A product's public roadmap",
    tags: ['Public'],
    params: ProductParams,
    response: PublicRoadmap,
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { publicScope: true },
    extraDescription:
      'Planned and in-progress items by +1s (most wanted first), shipped items newest first; ' +
      `at most ${ROADMAP_COLUMN_LIMIT} per column; merged items are left out. A private product ` +
      'answers 404 to everyone outside its workspace, like an unknown address.',
    async handler(ctx) {
      const { slug, key } = ctx.params;
      const board = await boardFor(deps.readStore, ctx.principal, slug, key);
      if (!board) throw new NotFound(NO_BOARD);
      const columns = await roadmapOf(deps.readStore, {
        workspaceId: board.workspaceId,
        productKey: key,
      });
      return { body: { product: { id: key, name: board.productName }, columns } };
    },
  });
}
