/**
 * An item's page (issue 12 item 1): the item and its thread, the +1 button, and the items merged
 * into it. A merged item redirects to its survivor — the end of its merges — (302: an unmerge
 * may bring it back), to the line naming it there (`#merged-<KEY>`: the item it came through
 * when it was merged into an item merged in turn): a visitor following a link to their own idea
 * is told where it went, not shown another item without a word.
 */
import type { Router } from 'express';
import { NotFound } from '../../../commands/shared/errors.js';
import { itemDocId, itemsOf } from '../../../projections/items/document.js';
import { findItem } from '../../../projections/items/queries.js';
import { listReplies } from '../../../projections/replies/queries.js';
import { followMergedDocs } from '../actions/index.js';
import { ItemKey } from '../http/schemas.js';
import { type BoardDeps, NO_SUCH_ITEM } from './context.js';
import { navOf } from './nav.js';
import type { PageAnswers } from './page-answer.js';
import { ItemPage } from './views/item.js';
import { documentOf } from './views/layout.js';
import { sendOn } from './respond.js';

export function mountItemPage(router: Router, deps: BoardDeps, pages: PageAnswers): void {
  const { page } = pages;
  router.get(
    '/:slug/:key/items/:itemKey',
    page(async (req, res, view) => {
      const { product, visitor } = view;
      const itemKey = String(req.params.itemKey);
      // `app-1` was sent on to `APP-1` before, when the board has it (canonical.ts)
      if (!ItemKey.safeParse(itemKey).success || !itemKey.startsWith(`${product.key}-`)) {
        throw new NotFound(NO_SUCH_ITEM);
      }
      const doc = await findItem(deps.readStore, { workspaceId: product.workspaceId, itemKey });
      if (!doc) throw new NotFound(NO_SUCH_ITEM);
      const nav = navOf(deps, product, 'item');
      if (doc._mergedInto) {
        // to the end of its merges (A into B, B into C: C's page), at the line there naming the
        // item it came through (B; A itself when it was merged straight into C)
        const { chain } = await followMergedDocs(deps.readStore, product.workspaceId, itemKey);
        res.setHeader('Cache-Control', 'no-cache');
        sendOn(res, 302, `${nav.boardUrl}/items/${chain.at(-1)}#merged-${chain.at(-2)}`);
        return;
      }
      await pages.answer(req, res, view, `item:${product.scope}:${itemKey}`, !visitor, async () => {
        const replies = await listReplies(deps.readStore, {
          workspaceId: product.workspaceId,
          itemKey,
        });
        const person = await pages.personOf(product, visitor);
        const merged = doc._mergedKeys.length
          ? await itemsOf(deps.readStore).find(
              { _id: { $in: doc._mergedKeys.map((key) => itemDocId(product.workspaceId, key)) } },
              { sort: { _n: 1 } },
            )
          : [];
        return documentOf(
          <ItemPage
            nav={nav}
            item={doc}
            url={`${nav.boardUrl}/items/${itemKey}`}
            replies={replies}
            merged={merged.map((m) => ({ id: m.id, title: m.title }))}
            plusOned={person !== null && doc._plusOnes.includes(person)}
            own={person !== null && doc._submitterId === person}
            auth={pages.authOf(visitor)}
          />,
        );
      });
    }),
  );
}
