import { z } from 'zod';
import type { DomainEvent } from '../shared/decider.js';

/** A personal API token. Only the hash of its value is ever recorded. */
export const TokenCreatedData = z.object({
  tokenId: z.string().min(1),
  ownerId: z.string().min(1),
  name: z.string().min(1).max(100),
  hash: z.string().min(1),
  /** ms since epoch; null = never expires */
  expiresAt: z.number().int().nullable(),
});
export const TokenRevokedData = z.object({});

export type TokenCreated = DomainEvent<'TokenCreated', z.infer<typeof TokenCreatedData>>;
export type TokenRevoked = DomainEvent<'TokenRevoked', z.infer<typeof TokenRevokedData>>;
export type TokenEvent = TokenCreated | TokenRevoked;

export const tokenEventSchemas = {
  TokenCreated: TokenCreatedData,
  TokenRevoked: TokenRevokedData,
} as const;
