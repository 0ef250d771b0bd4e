/**
 * Personal API token management (spec "Personal API tokens"): create shows the value once,
 * list never shows values or hashes, revoke applies to the very next request (authentication
 * looks tokens up live). Only makers — users with at least one workspace — may create one; the
 * token decider refuses others with 403. Only the maker's own credentials reach these routes
 * (`meta.ownCredentials`, authorize.ts rule 4): a token minted by an OAuth app would outlive the app.
 */
import { z } from 'zod';
import { tokensOf } from '../../../../projections/tokens/projector.js';
import { createToken, revokeToken } from '../../actions/tokens.js';
import {
  commandContext,
  defineFeedbackOp,
  type FeedbackHttpDeps,
  type FeedbackOperation,
} from '../types.js';
import { ApiTokenList, CreateApiTokenBody, CreatedApiToken, TokenId } from './schemas.js';

const TAGS = ['API tokens'];

export function tokenOperations(deps: FeedbackHttpDeps): FeedbackOperation[] {
  const createApiToken = defineFeedbackOp({
    id: 'create_api_token',
    honoursIfMatch: 'commands',
    method: 'post',
    path: '/v1/me/tokens',
    summary: 'Create a personal API token',
    description:
      'Creates a personal API token (`rft_service_…`) that authenticates as you, with your memberships. The value is in this response only; the service keeps just its hash.',
    extraDescription:
      'Only makers (members of at least one workspace) may create tokens; anyone else gets 403.',
    tags: TAGS,
    body: CreateApiTokenBody,
    response: CreatedApiToken,
    successStatus: 201,
    errors: [400, 401, 403],
    auth: 'bearer',
    meta: { ownCredentials: true },
    async handler(ctx) {
      const context = commandContext(deps, ctx.principal, ctx);
      const created = await createToken(deps, context, {
        ownerId: ctx.principal.userId,
        name: ctx.body.name,
        expiresAt: ctx.body.expiresAt ?? null,
      });
      return {
        status: 201,
        headers: { 'Cache-Control': 'no-store' },
        body: {
          id: created.tokenId,
          name: created.name,
          token: created.token,
          expiresAt: created.expiresAt,
          createdAt: context.now,
        },
        position: created.position,
      };
    },
  });

  const listApiTokens = defineFeedbackOp({
    id: 'list_api_tokens',
    method: 'get',
    path: '/v1/me/tokens',
    summary: 'List your personal API tokens',
    description:
      'Your tokens, oldest first, including revoked and expired ones. Never their values.',
    tags: TAGS,
    response: ApiTokenList,
    errors: [401, 403],
    auth: 'bearer',
    meta: { ownCredentials: true },
    async handler(ctx) {
      const docs = await tokensOf(deps.readStore).find(
        { ownerId: ctx.principal.userId },
        { sort: { createdAt: 1, _id: 1 } },
      );
      return {
        body: {
          tokens: docs.map((doc) => ({
            id: doc.tokenId,
            name: doc.name,
            expiresAt: doc.expiresAt,
            createdAt: doc.createdAt,
            revoked: doc.revoked,
            revokedAt: doc.revokedAt,
          })),
        },
      };
    },
  });

  const revokeApiToken = defineFeedbackOp({
    id: 'revoke_api_token',
    honoursIfMatch: 'commands',
    method: 'delete',
    path: '/v1/me/tokens/{tokenId}',
    summary: 'Revoke a personal API token',
    description:
      'The token stops working on the very next request. Revoking a revoked token is a no-op; a token that is not yours is 404.',
    tags: TAGS,
    params: z.object({ tokenId: TokenId }),
    successStatus: 204,
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { ownCredentials: true },
    async handler(ctx) {
      const result = await revokeToken(deps, commandContext(deps, ctx.principal, ctx), {
        tokenId: ctx.params.tokenId,
        byUserId: ctx.principal.userId,
      });
      return { position: result.position };
    },
  });

  return [createApiToken, listApiTokens, revokeApiToken];
}
