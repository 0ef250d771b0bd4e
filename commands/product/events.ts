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
 * A submission the same-body fold applies to (decide.ts): `key` stands for its person and body
 * (a hash, chosen by the action), `at` is when it was submitted.
 */
export const SubmissionFold = z.object({ key: z.string().min(1), at: z.number() });
export type SubmissionFold = z.infer<typeof SubmissionFold>;

/**
 * The product hands out item numbers; the item stream is created afterwards (submit action).
 * `submissionId` ties the number to one submission so a retried submission reuses it; `fold`
 * lets a later submission of the same person and body find it (absent before the fold was
 * decided here, and for submissions it does not apply to).
 */
export const ItemNumberAllocatedData = z.object({
  number: z.number().int().positive(),
  itemKey: z.string(),
  submissionId: z.string().min(1),
  fold: SubmissionFold.optional(),
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
