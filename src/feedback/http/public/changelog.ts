/**
 * list_public_changelog: GET /v1/public/{slug}/{key}/changelog (issue 12) — the published
 * changelog entries of a public product, newest first, paged with an opaque cursor. The board's
 * changelog page and Atom feed show the same entries. Any valid bearer, `service.public`
 * included, no membership; a private product answers 404 to everyone outside its workspace
 * exactly like an unknown address.
 */
import { z } from 'zod';
import { NotFound } from '../../../../commands/shared/errors.js';
import { changelogPage } from '../../../../projections/changelog/queries.js';
import { cursorParam, howToPage, pageOf, pageSizeParam } from '../../../http/registry.js';
import { Count, ItemKey, ProductKey, ProductParams, Timestamp } from '../schemas.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';
import { boardFor, NO_BOARD } from './board.js';

const PublicChangelogEntry = z
  .object({
    id: z.string(),
    productId: ProductKey,
    itemIds: z.array(ItemKey).describe('the shipped items the entry announces'),
    title: z.string(),
    body: z.string(),
    requestedByNames: z.array(z.string()).describe('names of some of the people who asked'),
    requestedByCount: Count.describe('how many people asked'),
    publishedAt: Timestamp,
    updatedAt: Timestamp,
  })
  .strict()
  .meta({ id: 'PublicChangelogEntry' });

const Mark = z.object({ publishedAt: z.number(), id: z.string() }).strict();

export function publicChangelogOperation(deps: FeedbackHttpDeps): FeedbackOperation {
  return defineFeedbackOp({
    id: 'list_public_changelog',
    method: 'get',
    path: '/v1/public/{slug}/{key}/changelog',
    summary: "A product's published changelog",
    tags: ['Public'],
    params: ProductParams,
    query: z.object({
      cursor: cursorParam(),
      pageSize: pageSizeParam({ max: 100, default: 20 }),
    }),
    response: pageOf(PublicChangelogEntry),
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { publicScope: true },
    extraDescription:
      `Newest first. ${howToPage()} ` +
      "The same entries as the board's changelog page and its Atom feed " +
      '(`<public base URL>/<slug>/<key>/changelog.atom`). A private product answers 404 to ' +
      'everyone outside its workspace, like an unknown address. An entry is kept as published, ' +
      'but is not listed while its item is not shipped (again when it ships again), and a ' +
      'merged item given back by unmerge_items leaves its `itemIds` and its "Also answers" line.',
    async handler(ctx) {
      const { slug, key } = ctx.params;
      const board = await boardFor(deps.readStore, ctx.principal, slug, key);
      if (!board) throw new NotFound(NO_BOARD);
      const scope = `public-changelog:${board.workspaceId}/${key}`;
      const { cursor, pageSize } = ctx.query;
      const after = cursor ? deps.cursors.decodeAs(cursor, Mark, { scope }) : null;
      const { entries, next } = await changelogPage(deps.readStore, {
        workspaceId: board.workspaceId,
        productKey: key,
        after,
        limit: pageSize,
      });
      return {
        body: { items: entries, nextCursor: next ? deps.cursors.encode(next, { scope }) : null },
      };
    },
  });
}
