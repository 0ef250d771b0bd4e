import { z } from 'zod';
import type { DomainEvent } from '../shared/decider.js';

/** An end user who files, +1s or replies to feedback in one workspace. */
export const PersonTier = z.enum(['anonymous', 'email', 'google']);
export type PersonTier = z.infer<typeof PersonTier>;

export const PersonCreatedData = z.object({
  personId: z.string().min(1),
  workspaceId: z.string().min(1),
  tier: PersonTier,
  displayName: z.string().nullable(),
  avatar: z.string().nullable(),
  email: z.string().nullable(),
});
/** Only the fields that changed. */
export const PersonUpdatedData = z.object({
  tier: PersonTier.optional(),
  displayName: z.string().optional(),
  avatar: z.string().optional(),
  email: z.string().optional(),
});

export type PersonCreated = DomainEvent<'PersonCreated', z.infer<typeof PersonCreatedData>>;
export type PersonUpdated = DomainEvent<'PersonUpdated', z.infer<typeof PersonUpdatedData>>;
export type PersonEvent = PersonCreated | PersonUpdated;

export const personEventSchemas = {
  PersonCreated: PersonCreatedData,
  PersonUpdated: PersonUpdatedData,
} as const;
