/**
 * Addressing rules from the spec's "Addressing" table. Product keys prefix every item key, so
 * both live here and the item aggregate imports them.
 */
export const PRODUCT_KEY = /^[A-Z]{3,5}$/;
export const ITEM_KEY = /^[A-Z]{3,5}-[1-9]\d*$/;
export const WORKSPACE_SLUG = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){4,19}$/;

export function itemKeyOf(productKey: string, number: number): string {
  return `${productKey}-${number}`;
}

/** The product key an item key starts with, or null when the key is malformed. */
export function productKeyOf(itemKey: string): string | null {
  return ITEM_KEY.test(itemKey) ? itemKey.slice(0, itemKey.indexOf('-')) : null;
}
