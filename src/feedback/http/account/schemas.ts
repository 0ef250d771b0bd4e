/** Request and response shapes of the token and connected-app routes (not in the spec's tables). */
import { z } from 'zod';
import { Timestamp } from '../schemas.js';

export const TokenId = z.string().min(1).max(100).describe('API token id');
export const ClientId = z.string().min(1).max(200).describe('OAuth client id');

export const CreateApiTokenBody = z
  .object({
    name: z
      .string()
      .min(1)
      .max(100)
      .describe('shown in the token list and in attribution labels (`pat:<name>`)'),
    expiresAt: Timestamp.optional()
      .nullable()
      .describe(
        'when the token stops working (ms since the epoch, in the future); absent or null = never',
      ),
  })
  .strict()
  .meta({ id: 'CreateApiTokenRequest' });

const tokenFields = {
  id: TokenId,
  name: z.string().min(1).max(100),
  expiresAt: Timestamp.nullable(),
  createdAt: Timestamp,
};

export const CreatedApiToken = z
  .object({
    ...tokenFields,
    token: z
      .string()
      .regex(/^rft_service_[A-Za-z0-9_-]+$/)
      .describe('the token value; shown only in this response, never again'),
  })
  .strict()
  .meta({ id: 'CreatedApiToken' });

export const ApiToken = z
  .object({
    ...tokenFields,
    revoked: z.boolean(),
    revokedAt: Timestamp.nullable(),
  })
  .strict()
  .describe('a personal API token without its value (only a hash is stored)')
  .meta({ id: 'ApiToken' });

export const ApiTokenList = z.object({ tokens: z.array(ApiToken) }).strict();

export const ConnectedApp = z
  .object({
    clientId: ClientId,
    clientName: z.string(),
    scopes: z.array(z.string()),
    connectedAt: Timestamp.describe('time of the first grant (ms)'),
  })
  .strict()
  .meta({ id: 'ConnectedApp' });

export const ConnectedAppList = z.object({ apps: z.array(ConnectedApp) }).strict();
