import { assetsUrl, type BoardDeps, boardUrlOf } from './context.js';
import type { PublicProduct } from './queries.js';
import type { BoardNav } from './views/layout.js';

export function navOf(
  deps: BoardDeps,
  product: PublicProduct,
  current: BoardNav['current'],
): BoardNav {
  return {
    boardUrl: boardUrlOf(deps, product.slug, product.key),
    productName: product.name,
    current,
    assets: assetsUrl(deps),
  };
}
