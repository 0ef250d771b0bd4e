/**
 * Workspace integration credentials: `rfi_` + 256 random bits. The value is returned once and
 * only its SHA-256 is recorded; authentication hashes the presented value and looks it up live
 * (projections/integrations: integrationByHash), so a revocation applies to the next request.
 */
import { hash, randomBytes } from 'node:crypto';
import { integrationDecider, integrationStreamId } from '../../../commands/integration/index.js';
import {
  type CommandContext,
  type CommandDeps,
  hexIdFor,
  keyedBy,
  refuseCredentialReplay,
} from './deps.js';

export const INTEGRATION_PREFIX = 'rfi_';

export function hashIntegrationCredential(value: string): string {
  return hash('sha256', value, 'hex');
}

export async function createIntegration(
  deps: CommandDeps,
  context: CommandContext,
  input: { workspaceId: string; name: string },
): Promise<{ integrationId: string; credential: string; position: bigint | null }> {
  const integrationId = `int_${hexIdFor(context, `integration\0${input.workspaceId}\0${context.actor}`)}`;
  const credential = `${INTEGRATION_PREFIX}${randomBytes(32).toString('base64url')}`;
  const result = await deps.commandHandler.handle(
    integrationStreamId(integrationId),
    integrationDecider,
    {
      type: 'CreateIntegration',
      data: {
        integrationId,
        workspaceId: input.workspaceId,
        name: input.name,
        hash: hashIntegrationCredential(credential),
      },
    },
    keyedBy(context, { name: input.name }),
  );
  refuseCredentialReplay(result, `the integration ${integrationId}`);
  return { integrationId, credential, position: result.position };
}

export async function revokeIntegration(
  deps: CommandDeps,
  context: CommandContext,
  input: { workspaceId: string; integrationId: string },
): Promise<{ position: bigint | null }> {
  const result = await deps.commandHandler.handle(
    integrationStreamId(input.integrationId),
    integrationDecider,
    { type: 'RevokeIntegration', data: { workspaceId: input.workspaceId } },
    context,
  );
  return { position: result.position };
}
