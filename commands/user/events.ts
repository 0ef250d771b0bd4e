import { z } from 'zod';
import type { DomainEvent } from '../shared/decider.js';

/** A maker's account. Makers reach workspaces through memberships (workspace aggregate). */
export const UserCreatedData = z.object({
  userId: z.string().min(1),
  email: z.string().min(3).max(320),
  displayName: z.string().min(1).max(200),
});

export type UserCreated = DomainEvent<'UserCreated', z.infer<typeof UserCreatedData>>;
export type UserEvent = UserCreated;

export const userEventSchemas = { UserCreated: UserCreatedData } as const;
