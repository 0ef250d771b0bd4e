import { z } from 'zod';
import type { DomainEvent } from '../shared/decider.js';

export const Visibility = z.enum(['private', 'public']);
export type Visibility = z.infer<typeof Visibility>;

export const ProductCreatedData = z.object({
  workspaceId: z.string().min(1),
  key: z.string().regex(/^[A-Z]{3,5}$/),
  name: z.string().min(1).max(200),
  visibility: Visibility,
});
export const ProductRenamedData = z.object({ name: z.string().min(1).max(200) });
export const ProductVisibilityChangedData = z.object({ visibility: Visibility });
/**
 * The product hands out item numbers; the item stream is created afterwards (submit action).
 * `submissionId` ties the number to one submission so a retried submission reuses it.
 */
export const ItemNumberAllocatedData = z.object({
  number: z.number().int().positive(),
  itemKey: z.string(),
  submissionId: z.string().min(1),
});

type Data<S extends z.ZodType> = z.infer<S>;
export type ProductCreated = DomainEvent<'ProductCreated', Data<typeof ProductCreatedData>>;
export type ProductRenamed = DomainEvent<'ProductRenamed', Data<typeof ProductRenamedData>>;
export type ProductVisibilityChanged = DomainEvent<
  'ProductVisibilityChanged',
  Data<typeof ProductVisibilityChangedData>
>;
export type ItemNumberAllocated = DomainEvent<
  'ItemNumberAllocated',
  Data<typeof ItemNumberAllocatedData>
>;

export type ProductEvent =
  | ProductCreated
  | ProductRenamed
  | ProductVisibilityChanged
  | ItemNumberAllocated;

export const productEventSchemas = {
  ProductCreated: ProductCreatedData,
  ProductRenamed: ProductRenamedData,
  ProductVisibilityChanged: ProductVisibilityChangedData,
  ItemNumberAllocated: ItemNumberAllocatedData,
} as const;
