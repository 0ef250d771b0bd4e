/**
 * Names shown in lists, pickers and page headers (workspace, product, token, integration, a
 * maker's display name) follow the rule of tag and device names: no control characters, at least
 * one visible character. Audit: "a\nb" and "\u200b" were stored as a workspace's or token's name,
 * which breaks a line of a listing or shows as nothing.
 */
import { integrationDecider } from '../../commands/integration/index.js';
import { productDecider } from '../../commands/product/index.js';
import { InvalidArgument } from '../../commands/shared/errors.js';
import { tokenDecider } from '../../commands/token/index.js';
import { userDecider } from '../../commands/user/index.js';
import { workspaceDecider } from '../../commands/workspace/index.js';
import { deciderSpec } from '../support/decider.js';

const named = {
  'a workspace': (name: string) =>
    deciderSpec(workspaceDecider)([]).when({
      type: 'CreateWorkspace',
      data: { workspaceId: 'w1', name, slug: 'acme-co', ownerId: 'u1' },
    }),
  'a product': (name: string) =>
    deciderSpec(productDecider)([]).when({
      type: 'CreateProduct',
      data: { workspaceId: 'w1', key: 'ACME', name, visibility: 'public' },
    }),
  'a token': (name: string) =>
    deciderSpec(tokenDecider)([]).when({
      type: 'CreateToken',
      data: { tokenId: 't1', ownerId: 'u1', name, hash: 'h', expiresAt: null, ownerIsMaker: true },
    }),
  'an integration': (name: string) =>
    deciderSpec(integrationDecider)([]).when({
      type: 'CreateIntegration',
      data: { integrationId: 'i1', workspaceId: 'w1', name, hash: 'h' },
    }),
  'a maker': (displayName: string) =>
    deciderSpec(userDecider)([]).when({
      type: 'CreateUser',
      data: { userId: 'u1', email: 'ada@example.com', displayName },
    }),
};

describe('A name shown in lists', () => {
  for (const [what, create] of Object.entries(named)) {
    it(`of ${what} refuses control characters and names that show nothing`, () => {
      create('a\nb').thenThrows(InvalidArgument, /must not contain control characters/);
      create('tab\there').thenThrows(InvalidArgument, /must not contain control characters/);
      create('\u200b').thenThrows(InvalidArgument, /must contain a visible character/);
      create('   ').thenThrows(InvalidArgument);
    });
  }
});
